internal import CLevelDB

// Unsafe code (C interop; Docs/Architecture.md, "Where unsafe code lives"): `withLevelDBError`
// lends LevelDB the address of a local error pointer for one call and frees the message LevelDB
// mallocs exactly once; `Array(levelDBBytes:length:)` copies bytes LevelDB returned, before
// the caller frees them.

/// Runs `body` with a LevelDB `errptr` out-parameter and throws if LevelDB set it.
///
/// LevelDB allocates the message with `malloc`; it is freed here, exactly once.
func withLevelDBError<R>(path: String?, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) throws -> R {
    var error: UnsafeMutablePointer<CChar>?
    let result = body(&error)
    if let error {
        let message = String(cString: error)
        leveldb_free(error)
        throw LevelDBError.fromLevelDB(message, path: path)
    }
    return result
}

extension Array where Element == UInt8 {
    /// Copies `length` bytes that LevelDB returned.
    init(levelDBBytes pointer: UnsafePointer<CChar>, length: Int) {
        self = Array(UnsafeRawBufferPointer(start: pointer, count: length).bindMemory(to: UInt8.self))
    }
}
