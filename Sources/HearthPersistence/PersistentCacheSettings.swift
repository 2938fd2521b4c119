public import Hearth

/// A cache in a LevelDB folder: documents read, listen targets and writes not yet acknowledged
/// by the server survive the process, and the next `Firestore` on the same path sends those
/// writes. One instance at a time may use a path; a second one fails with
/// `.failedPrecondition`.
///
/// ```swift
/// import Hearth
/// import HearthPersistence
///
/// var settings = FirestoreSettings()
/// settings.cacheSettings = PersistentCacheSettings(path: cacheFolder.path)
/// let db = try Firestore.remote(host: "127.0.0.1", port: 8080, settings: settings)
/// ```
public struct PersistentCacheSettings: LocalCacheSettings, LocalStoreProvider {
    /// The cache's folder (created if absent).
    public var path: String
    /// The size the cached documents may take before the least recently read ones, that no
    /// pending write touches, are evicted.
    public var sizeBytes: Int64

    /// The default size limit, 100 MiB, as the Firebase SDKs'.
    public static let defaultSizeBytes: Int64 = 100 * 1024 * 1024

    public init(path: String, sizeBytes: Int64 = defaultSizeBytes) {
        self.path = path
        self.sizeBytes = sizeBytes
    }

    package func openLocalStore() throws -> any LocalStore {
        try PersistentLocalStore(path: path, sizeBytes: sizeBytes)
    }

    package func destroyLocalStore() throws {
        try PersistentLocalStore.destroy(path: path)
    }
}
