package import Foundation

/// The opaque id of a transaction, as Firestore's API carries it (`bytes transaction`).
public struct TransactionID: Sendable, Hashable, CustomStringConvertible {
    /// The id's bytes: 8 bytes of a per-store counter and 8 random bytes, so ids from an earlier
    /// run of the store are unknown rather than mistaken for new ones.
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package init(sequence: UInt64, salt: UInt64) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for value in [sequence, salt] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        self.bytes = bytes
    }

    /// Hashes the bytes at once (an array hashes element by element): ids are dictionary keys on
    /// every transactional read and commit.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The id in base64, as the REST API writes it.
    public var description: String { Data(bytes).base64EncodedString() }
}
