import LevelDB

extension Database {
    /// Every entry whose key starts with `prefix`, read into memory: for tests that inspect or
    /// rewrite the raw keys of a closed store.
    func entries(withPrefix prefix: [UInt8]) throws -> [(key: [UInt8], value: [UInt8])] {
        var entries: [(key: [UInt8], value: [UInt8])] = []
        try forEachEntry(withPrefix: prefix) { entries.append(($0, $1)) }
        return entries
    }
}
