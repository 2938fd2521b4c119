import DocumentModel
import DocumentStore
import Foundation
import Testing

/// `hearth check`, `hearth repair`, and the refusal of a damaged folder by every command,
/// on a sandboxed data folder damaged on purpose.
@Suite struct IntegrityCommandTests {
    static let documentCount = 3000

    /// Writes `items/0` … `items/<count - 1>` (200 random letters each) into the sandbox's data
    /// folder; with `toTables`, reopens the store so they move from the write-ahead log to a table.
    private func writeDocuments(in sandbox: Sandbox, toTables: Bool) throws {
        let database = try DatabaseID(project: "demo-hearth")
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        let store = try DocumentStore(path: sandbox.dataFolder.path, configuration: configuration)
        for start in stride(from: 0, to: Self.documentCount, by: 100) {
            try store.commit(
                try (start..<start + 100).map { index in
                    let text = String((0..<200).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
                    return .set(try DocumentName(database, "items/\(index)"), fields: ["i": .integer(Int64(index)), "text": .string(text)])
                })
        }
        try store.close()
        if toTables { try DocumentStore(path: sandbox.dataFolder.path, configuration: configuration).close() }
    }

    /// The largest file of the data folder ending with `suffix`, with a quarter of the way in
    /// 64 bytes inverted; its name.
    private func damageLargest(_ suffix: String, in sandbox: Sandbox) throws -> String {
        let folder = sandbox.dataFolder.path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(suffix) }
        let sized = try names.map { ($0, try FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.size] as? Int ?? 0) }
        let (name, size) = try #require(sized.max { $0.1 < $1.1 })
        let url = URL(fileURLWithPath: folder + "/" + name)
        var bytes = try Data(contentsOf: url)
        for index in size / 4..<size / 4 + 64 { bytes[index] ^= 0xFF }
        try bytes.write(to: url)
        return name
    }

    /// The folder's tables, logs, manifests and `CURRENT` (not LevelDB's own `LOG` and `LOCK`).
    private func dataFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { name in
            name == "CURRENT" || name.hasPrefix("MANIFEST-") || name.hasSuffix(".log") || name.hasSuffix(".ldb")
        }.sorted()
    }

    @Test("A damaged write-ahead log: every command refuses naming the file, check fails, repair reports what it kept")
    func damagedLog() throws {
        let sandbox = try Sandbox()
        try writeDocuments(in: sandbox, toTables: false)
        let log = try damageLargest(".log", in: sandbox)
        let before = try dataFiles(in: sandbox.dataFolder.path)

        for arguments in [["get", "items/1"], ["start", "--port", "0"]] {
            let refused = try sandbox.run(arguments)
            #expect(refused.exitCode != 0)
            #expect(refused.stderr.contains(log) && refused.stderr.contains("hearth repair"), "\(refused.stderr)")
        }
        let check = try sandbox.run(["check"])
        #expect(check.exitCode == 1)
        #expect(check.stderr.contains(log), "\(check.stderr)")

        let repair = try sandbox.run(["repair"])
        #expect(repair.exitCode == 0, "\(repair.stderr)")
        let kept = try #require(repair.stdout.firstMatch(of: /(\d+) documents kept/).flatMap { Int($0.1) }, "\(repair.stdout)")
        #expect(kept > 0 && kept < Self.documentCount, "\(repair.stdout)")
        #expect(repair.stdout.contains("\(log): dropping"), "\(repair.stdout)")
        let backup = try #require(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.dataFolder.deletingLastPathComponent().path)
                .first { $0.hasPrefix("data.before-repair-") })
        let copied = sandbox.dataFolder.deletingLastPathComponent().appendingPathComponent(backup).path
        #expect(try dataFiles(in: copied) == before)
        #expect(before.contains(log))

        let after = try sandbox.run(["check"])
        #expect(after.exitCode == 0, "\(after.stdout)\(after.stderr)")
        #expect(after.stdout.contains("\(kept) live documents"), "\(after.stdout)")
        #expect(try sandbox.run(["list", "items", "--names-only"]).stdout.split(separator: "\n").count == kept)
    }

    @Test("A damaged table block: check names the damaged range; repair lists the lost documents")
    func damagedTable() throws {
        let sandbox = try Sandbox()
        try writeDocuments(in: sandbox, toTables: true)
        _ = try damageLargest(".ldb", in: sandbox)

        let check = try sandbox.run(["check"])
        #expect(check.exitCode == 1)
        #expect(check.stdout.contains("Damaged: Keys after document projects/demo-hearth"), "\(check.stdout)")

        let repair = try sandbox.run(["repair"])
        #expect(repair.exitCode == 0, "\(repair.stderr)")
        let kept = try #require(repair.stdout.firstMatch(of: /(\d+) documents kept/).flatMap { Int($0.1) })
        let lost = try #require(repair.stdout.firstMatch(of: /(\d+) documents lost:/).flatMap { Int($0.1) }, "\(repair.stdout)")
        #expect(kept + lost == Self.documentCount)
        #expect(kept < Self.documentCount)
        #expect(try sandbox.run(["check"]).exitCode == 0)
    }

    @Test("check on a sound folder reports no damage and exits 0")
    func soundFolder() throws {
        let sandbox = try Sandbox()
        try writeDocuments(in: sandbox, toTables: true)
        let check = try sandbox.run(["check"])
        #expect(check.exitCode == 0, "\(check.stderr)")
        #expect(check.stdout.contains("\(Self.documentCount) live documents"))
        #expect(check.stdout.contains("No damage found"))
    }
}
