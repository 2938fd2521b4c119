import DocumentModel
import DocumentStore
import Foundation

/// Helpers that damage a closed store's folder the way a failing disk or a careless user would.
enum FolderDamage {
    /// A closed store in a fresh folder holding `count` documents `items/<i>` of about 200
    /// bytes of incompressible text each, written out to table files (`.ldb`).
    static func storeWithDocuments(_ count: Int) throws -> (folder: String, database: DatabaseID) {
        let folder = NSTemporaryDirectory() + "hearth-damage-tests-" + UUID().uuidString
        let database = try DatabaseID(project: "demo-damage")
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil
        var store = try DocumentStore(path: folder, configuration: configuration)
        var generator = SystemRandomNumberGenerator()
        for start in stride(from: 0, to: count, by: 500) {
            try store.commit(
                try (start..<min(start + 500, count)).map { index in
                    .set(try DocumentName(database, "items/\(index)"), fields: fields(index, using: &generator))
                })
        }
        try store.close()
        // Reopening replays the write-ahead log into a table file.
        store = try DocumentStore(path: folder, configuration: configuration)
        try store.close()
        return (folder, database)
    }

    /// The fields of document `items/<index>`: its index and random letters.
    static func fields(_ index: Int, using generator: inout some RandomNumberGenerator) -> MapValue {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let text = String((0..<200).map { _ in letters[Int.random(in: 0..<26, using: &generator)] })
        return ["index": .integer(Int64(index)), "text": .string(text)]
    }

    /// The names of the folder's files, sorted.
    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// The largest file of the folder whose name ends with `suffix`.
    static func largestFile(in folder: String, endingWith suffix: String) throws -> String? {
        try files(in: folder).filter { $0.hasSuffix(suffix) }.max { a, b in
            try size(folder + "/" + a) < size(folder + "/" + b)
        }.map { folder + "/" + $0 }
    }

    static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    /// Inverts `count` bytes of the file at `path`, from `offset` (the middle of the file if `nil`).
    static func flipBytes(in path: String, at offset: Int? = nil, count: Int) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = offset ?? bytes.count / 2
        for index in start..<min(start + count, bytes.count) { bytes[index] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))
    }
}
