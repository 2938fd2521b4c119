import DocumentModel
import DocumentStore
import Foundation

/// A store on a real LevelDB in a fresh temporary folder, with a manual clock.
final class StoreFixture {
    let folder: String
    let clock: ManualWallClock
    private(set) var store: DocumentStore
    let database: DatabaseID

    /// 2023-11-14T22:13:20Z.
    static let start = Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000)

    /// A store on a manual clock, or on the system clock (`systemClock`) for tests that need
    /// time to pass by itself, such as lock timeouts.
    init(retentionSeconds: Int64 = 3600, systemClock: Bool = false, lockWaitSeconds: Double = 1) throws {
        folder = NSTemporaryDirectory() + "hearth-store-tests-" + UUID().uuidString
        clock = ManualWallClock(StoreFixture.start)
        var configuration = StoreFixture.configuration(clock, retentionSeconds)
        if systemClock {
            configuration.clock = SystemWallClock()
            // Idle expiry is tested on the manual clock; on the system clock a test starved of
            // threads by the parallel suite must not see its transactions expire.
            configuration.transactionIdleSeconds = 3600
        }
        configuration.transactionLockWaitSeconds = lockWaitSeconds
        store = try DocumentStore(path: folder, configuration: configuration)
        database = try DatabaseID(project: "demo-test")
    }

    static func configuration(_ clock: ManualWallClock, _ retentionSeconds: Int64) -> StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.clock = clock
        configuration.retentionSeconds = retentionSeconds
        configuration.garbageCollectionIntervalSeconds = nil
        return configuration
    }

    /// Closes and opens the store again on the same folder.
    func reopen(retentionSeconds: Int64 = 3600) throws {
        try store.close()
        store = try DocumentStore(path: folder, configuration: StoreFixture.configuration(clock, retentionSeconds))
    }

    /// The name of a document in the fixture's database.
    func name(_ path: String) throws -> DocumentName {
        try DocumentName(database, path)
    }

    deinit {
        try? store.close()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

extension FieldPath {
    /// A field path from its text form, for brevity in tests.
    static func path(_ text: String) throws -> FieldPath { try FieldPath(text) }
}
