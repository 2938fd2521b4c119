/// How a `Firestore` instance keeps its local cache, as `FirestoreSettings` in the Firebase SDK.
///
/// ```swift
/// import HearthPersistence   // PersistentCacheSettings: the cache in a LevelDB folder
///
/// var settings = FirestoreSettings()
/// settings.cacheSettings = PersistentCacheSettings(path: cacheFolder.path)
/// let db = try Firestore.remote(host: "127.0.0.1", port: 8080, settings: settings)
/// ```
public struct FirestoreSettings: Sendable {
    /// Where documents, pending writes and listen targets are cached: in memory (the default:
    /// nothing outlives the instance) or in a folder that the next instance on the same path
    /// reuses.
    public var cacheSettings: any LocalCacheSettings = MemoryCacheSettings()

    public init() {}
}

/// The kind of local cache: `MemoryCacheSettings`, or `PersistentCacheSettings` from the
/// `HearthPersistence` library (which links LevelDB; `Hearth` alone does not).
public protocol LocalCacheSettings: Sendable {}

/// A cache that lives as long as the `Firestore` instance.
public struct MemoryCacheSettings: LocalCacheSettings {
    public init() {}
}

/// A cache kind that opens a store of its own (`PersistentCacheSettings` of `HearthPersistence`);
/// any other kind is a memory cache.
package protocol LocalStoreProvider: LocalCacheSettings {
    /// Opens the cache, failing when another instance holds it.
    func openLocalStore() throws -> any LocalStore
    /// Deletes the cache (for `clearPersistence()`, after `terminate()`).
    func destroyLocalStore() throws
}
