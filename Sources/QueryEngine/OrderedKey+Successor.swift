package import DocumentModel

extension OrderedKey {
    /// The smallest byte string greater than every string starting with `prefix` (the prefix with
    /// its last byte below `FF` incremented and the rest dropped), `nil` if there is none (all
    /// bytes `FF`, or empty). The same bound as LevelDB's `KeyRange.successor(ofPrefix:)`, which
    /// QueryEngine does not link.
    @inlinable
    package static func successor(ofPrefix prefix: [UInt8]) -> [UInt8]? {
        var bytes = prefix
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return nil
    }
}
