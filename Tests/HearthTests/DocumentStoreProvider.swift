import DocumentStore
import Foundation

/// A store in a fresh temporary folder, for tests that need one outside `TestDatabase`.
enum DocumentStoreProvider {
    static func make() throws -> DocumentStore {
        try DocumentStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID())").path)
    }
}
