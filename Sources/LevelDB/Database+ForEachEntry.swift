extension Database {
    /// Calls `body` with each entry whose key lies in `range`, in key order (or reverse key
    /// order), read lazily through one cursor that sees the database as it is when the scan
    /// starts (or the snapshot in `options`).
    ///
    /// ```swift
    /// try db.forEachEntry(withPrefix: prefix, reverse: true) { key, value in ... }
    /// ```
    ///
    /// - Throws: `LevelDBError` when the database is closed, or when LevelDB met an error while
    ///   reading (a corrupt block: the scan never ends early in silence); and what `body` throws,
    ///   which ends the scan.
    public func forEachEntry(
        in range: KeyRange, reverse: Bool = false, options: ReadOptions = ReadOptions(),
        _ body: (_ key: [UInt8], _ value: [UInt8]) throws -> Void
    ) throws {
        let cursor = try makeCursor(options: options)
        if !reverse {
            cursor.seek(to: range.lowerBound)
        } else if let upperBound = range.upperBound {
            cursor.seek(to: upperBound)
            if cursor.isValid { cursor.previous() } else { cursor.seekToLast() }
        } else {
            cursor.seekToLast()
        }
        while cursor.isValid {
            if reverse {
                guard cursor.compareKey(to: range.lowerBound) >= 0 else { break }
            } else if let upperBound = range.upperBound, cursor.compareKey(to: upperBound) >= 0 {
                break
            }
            try body(cursor.key, cursor.value)
            if reverse { cursor.previous() } else { cursor.next() }
        }
        try cursor.checkError()
    }

    /// Calls `body` with each entry whose key starts with `prefix`, in key order (or reverse key
    /// order); see `forEachEntry(in:reverse:options:_:)`.
    public func forEachEntry(
        withPrefix prefix: [UInt8], reverse: Bool = false, options: ReadOptions = ReadOptions(),
        _ body: (_ key: [UInt8], _ value: [UInt8]) throws -> Void
    ) throws {
        try forEachEntry(in: KeyRange(prefix: prefix), reverse: reverse, options: options, body)
    }
}
