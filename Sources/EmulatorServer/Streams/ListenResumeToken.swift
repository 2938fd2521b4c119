import DocumentModel
import Foundation

/// The resume tokens of the Listen stream: a commit version (the store's resume token), as
/// opaque bytes. Clients keep them across reconnects and send them back on `add_target`;
/// a token stays valid as long as its version is within the store's retention window (and
/// across restarts, since versions are durable).
///
/// Layout: one tag byte (`0x48`, "H") and the version as 8 big-endian bytes.
enum ListenResumeToken {
    private static let tag: UInt8 = 0x48

    /// The token for the store version `version`.
    static func encode(_ version: Int64) -> Data {
        var bytes = Data([tag])
        withUnsafeBytes(of: UInt64(bitPattern: version).bigEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The read time the stream reports for the store version `version`: its commit time, at
    /// least 1 µs, because clients take a zero read time (a store without commits) for "no
    /// snapshot yet".
    static func readTime(_ version: Int64) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: max(version, 1))
    }

    /// The version of a token this server made, or `nil` for bytes it did not make (another
    /// emulator's token, or garbage), which the stream treats as no token: a full reset.
    static func decode(_ token: Data) -> Int64? {
        guard token.count == 9, token.first == tag else { return nil }
        let version = token.dropFirst().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let signed = Int64(bitPattern: version)
        return signed > 0 ? signed : nil
    }
}
