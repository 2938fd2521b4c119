import DocumentModel
import LevelDB

/// Rewrites the documents-table and expiry-queue keys of a store written before format 4, whose
/// paths spelled numeric document ids (`__id<int64>__`) as strings; format 4 encodes them as
/// numbers so that they sort first, by value (see `OrderedKey`). Other keys are unchanged.
///
/// Each key whose current encoding differs from its stored one is moved (the new key put and
/// the old one deleted in the same batch), so an interrupted upgrade loses nothing: the store
/// keeps its old format, and the next open moves the keys still left (a moved key decodes and
/// re-encodes to itself). The index, whose keys end in document paths, is rebuilt afterwards.
enum DocumentKeyUpgrade {
    /// Moves every documents-table and expiry-queue key to its format-4 encoding.
    static func run(_ database: Database) throws {
        let batch = WriteBatch()
        func flushIfLarge() throws {
            guard batch.byteCount > 4 << 20 else { return }
            try database.write(batch)
            batch.clear()
        }
        // Each cursor reads an implicit snapshot: the moves below do not disturb it.
        let documents = try database.makeCursor(options: ReadOptions(fillCache: false))
        let documentsPrefix = [StorageKeys.Table.documents.rawValue]
        documents.seek(to: documentsPrefix)
        while documents.isValid, documents.keyHasPrefix(documentsPrefix) {
            let key = documents.key
            let current = try currentEncoding(ofDocumentKey: key)
            if current != key {
                batch.put(current, documents.value)
                batch.delete(key)
                try flushIfLarge()
            }
            documents.next()
        }
        try documents.checkError()
        let expiry = try database.makeCursor(options: ReadOptions(fillCache: false))
        expiry.seek(to: StorageKeys.expiryPrefix)
        while expiry.isValid, expiry.keyHasPrefix(StorageKeys.expiryPrefix) {
            let key = expiry.key
            // `03`, the due version (8 bytes), then a documents-table key.
            let dueLength = 1 + 8
            guard key.count > dueLength else {
                throw FirestoreError(.dataLoss, "Stored key is corrupt: an expiry-queue key is too short")
            }
            let documentKey = Array(key[dueLength...])
            let current = try currentEncoding(ofDocumentKey: documentKey)
            if current != documentKey {
                batch.put(Array(key[..<dueLength]) + current, expiry.value)
                batch.delete(key)
                try flushIfLarge()
            }
            expiry.next()
        }
        try expiry.checkError()
        try database.write(batch, sync: true)
    }

    /// The format-4 encoding of a documents-table key of any format.
    private static func currentEncoding(ofDocumentKey key: [UInt8]) throws -> [UInt8] {
        let (name, version) = try StorageKeys.decodeVersionKey(key)
        return StorageKeys.version(name, version)
    }
}
