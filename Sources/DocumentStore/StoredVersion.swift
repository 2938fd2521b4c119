import DocumentModel

/// One row of the documents table: a live document or a tombstone.
///
/// A tombstone is the single byte `00`; a live document is `DocumentCodec`'s encoding, whose
/// first byte is its format (never `00`).
enum StoredVersion {
    case live(Document)
    case tombstone

    static let tombstoneBytes: [UInt8] = [0]

    static func decode(_ bytes: UnsafeRawBufferPointer, name: DocumentName) throws -> StoredVersion {
        guard let first = bytes.first else { throw FirestoreError(.dataLoss, "Empty stored version of \(name.path)") }
        if first == 0 {
            guard bytes.count == 1 else { throw FirestoreError(.dataLoss, "Corrupt tombstone of \(name.path)") }
            return .tombstone
        }
        return .live(try DocumentCodec.decodeDocument(bytes, name: name))
    }

    /// Whether stored bytes are a live document (not a tombstone), without decoding them.
    static func isLive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.first.map { $0 != 0 } ?? false
    }

    var document: Document? {
        if case .live(let document) = self { return document }
        return nil
    }
}
