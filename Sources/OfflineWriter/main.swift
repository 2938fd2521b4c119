// OfflineWriter <host> <port> <cache-path> <document-path> <json-fields>
//
// A client process that queues one write and exits without waiting for the server (the offline
// scenarios of Tests/OfflineTests, issue #14): it opens `Firestore.remote` on a persistent cache
// at <cache-path>, starts `setData(<json-fields>)` on <document-path> without awaiting the
// acknowledgement, waits until the local snapshot of the document shows the write pending
// (`hasPendingWrites`), prints `queued` and exits at once. A new process on the same cache path
// then sends the queued write.
//
// Exit status: 0 after `queued`; 1 when the cache cannot be opened, the write fails before it is
// queued, or nothing is queued within 30 s; 2 on bad arguments.
import Foundation
import Hearth
import HearthPersistence

/// A JSON value of <json-fields>, for `setData` (numbers without a fraction are integers).
enum JSONField: Decodable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONField])
    case object([String: JSONField])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int64.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONField].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONField].self))
        }
    }

    /// The value as `setData` takes it.
    var value: Any {
        switch self {
        case .null: NSNull()
        case .bool(let bool): bool
        case .int(let int): int
        case .double(let double): double
        case .string(let string): string
        case .array(let array): array.map(\.value)
        case .object(let object): object.mapValues(\.value)
        }
    }
}

func fail(_ status: Int32, _ message: String) -> Never {
    FileHandle.standardError.write(Data("OfflineWriter: \(message)\n".utf8))
    exit(status)
}

func run() async -> Never {
    let arguments = CommandLine.arguments
    guard arguments.count == 6, let port = Int(arguments[2]) else {
        fail(2, "usage: OfflineWriter <host> <port> <cache-path> <document-path> <json-fields>")
    }
    let (host, cachePath, documentPath) = (arguments[1], arguments[3], arguments[4])
    let fields: [String: Any]
    do {
        fields = try JSONDecoder().decode([String: JSONField].self, from: Data(arguments[5].utf8)).mapValues(\.value)
    } catch {
        fail(2, "<json-fields> is not a JSON object: \(error)")
    }

    let db: Firestore
    do {
        var settings = FirestoreSettings()
        settings.cacheSettings = PersistentCacheSettings(path: cachePath)
        db = try Firestore.remote(host: host, port: port, settings: settings)
    } catch {
        fail(1, "cannot open the client on \(cachePath): \(error)")
    }
    let document = db.document(documentPath)

    // Nothing queued in 30 s: give up rather than hang the test that runs this.
    Task.detached {
        try? await Task.sleep(for: .seconds(30))
        fail(1, "the write to \(documentPath) was not queued within 30 s")
    }
    // The write, not awaited: it completes only when a server acknowledges it.
    let data = UncheckedSendable(fields)
    Task {
        do {
            try await document.setData(data.value)
        } catch {
            fail(1, "the write to \(documentPath) failed: \(error)")
        }
    }
    do {
        for try await snapshot in document.snapshots(includeMetadataChanges: true)
        where snapshot.exists && snapshot.metadata.hasPendingWrites {
            FileHandle.standardOutput.write(Data("queued\n".utf8))
            exit(0)
        }
        fail(1, "the listener of \(documentPath) ended before the write showed")
    } catch {
        fail(1, "the listener of \(documentPath) failed: \(error)")
    }
}

/// The fields, handed to the writing task (they are plain values, never mutated).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

await run()
