internal import CLevelDB

// Unsafe code (C interop; Docs/Architecture.md, "Where unsafe code lives"): the C options are
// created and destroyed around the one call that reads them.

extension Database {
    /// Runs LevelDB's repair on the closed database in `path`: it rebuilds the manifest from the
    /// table files, turns write-ahead logs into tables (dropping damaged records), keeps the
    /// readable entries of damaged tables and moves the damaged files into `path/lost`.
    ///
    /// Some data may be lost; keep a copy of the folder first. LevelDB's `LOG` in the folder
    /// says what was dropped.
    public static func repair(path: String, options: OpenOptions = OpenOptions()) throws {
        let cOptions = leveldb_options_create()!
        defer { leveldb_options_destroy(cOptions) }
        leveldb_options_set_paranoid_checks(cOptions, options.paranoidChecks ? 1 : 0)
        leveldb_options_set_compression(
            cOptions, Int32(options.compression ? leveldb_snappy_compression : leveldb_no_compression))
        try withLevelDBError(path: path) { leveldb_repair_db(cOptions, path, $0) }
    }
}
