/// A half-open range of keys, `lowerBound ..< upperBound`, where a `nil` upper bound means
/// "to the end of the database".
public struct KeyRange: Sendable, Equatable {
    /// The first key in the range.
    public var lowerBound: [UInt8]
    /// The first key after the range, or `nil` for no limit.
    public var upperBound: [UInt8]?

    public init(from lowerBound: [UInt8], to upperBound: [UInt8]?) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }

    /// Every key that starts with `prefix`.
    public init(prefix: [UInt8]) {
        self.init(from: prefix, to: KeyRange.successor(ofPrefix: prefix))
    }

    /// The smallest key greater than every key that starts with `prefix`, or `nil` if none exists
    /// (the prefix is empty or all `0xFF`).
    public static func successor(ofPrefix prefix: [UInt8]) -> [UInt8]? {
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

    /// Whether `key` lies in the range.
    public func contains(_ key: [UInt8]) -> Bool {
        guard !key.lexicographicallyPrecedes(lowerBound) else { return false }
        guard let upperBound else { return true }
        return key.lexicographicallyPrecedes(upperBound)
    }
}
