package import DocumentModel
import FirestoreProto
import FirestoreWire
import SwiftProtobuf

/// The keys and values of the local cache in LevelDB (`PersistentLocalStore`); `MemoryLocalStore`
/// uses the same encodings to measure its entries, so both count sizes alike.
///
/// Every key starts with a one-byte table tag:
///
/// | key | value |
/// |---|---|
/// | `01` `format` | the layout version, 8 bytes big-endian (3; 2 had no field index, 1 stored target records without members either) |
/// | `01` `lastBatchID` | the highest batch ID ever added, 8 bytes big-endian (kept when every batch is removed, so IDs are never reused) |
/// | `02` project, database (`OrderedKey` strings), the document's path (`OrderedKey.appendPath`: segments, then `00 00`) | a remote entry |
/// | `03` the target's key in UTF-8 | a target record |
/// | `04` the batch ID, 8 bytes big-endian | a mutation batch |
/// | `05` a field index entry (`CacheIndex`: group, value, document path) | the length of the document path at the key's end, 4 bytes big-endian |
///
/// A remote entry's key sorts by database and path, and a path's segments are self-delimiting
/// (`users` ends `00 01`, so it is no prefix of `users2`): the documents of a collection, or of
/// everything below a document, are one prefix scan (`documentScanPrefix`). Batch IDs are
/// positive, so their big-endian bytes scan in batch order.
///
/// Values (integers big-endian, a timestamp as 8 bytes of seconds and 4 of nanoseconds):
/// - remote entry: `01`, the read time, then the document in `DocumentCodec` (times and fields;
///   the name is the key); or `02` and the read time for a document known not to exist;
/// - target record: `01`, the snapshot version, the resume token's length (4 bytes) and bytes,
///   the number of members (4 bytes), then per member its resource name's length (4 bytes) and
///   UTF-8 bytes;
/// - mutation batch: `01`, the local write time, the number of writes (4 bytes), then per write
///   its length (4 bytes) and its `google.firestore.v1.Write` message (`Write.proto`); the
///   database each write is decoded in is the one its document name names.
package enum LocalStoreLayout {
    package static let metadataTag: UInt8 = 0x01
    package static let documentTag: UInt8 = 0x02
    package static let targetTag: UInt8 = 0x03
    package static let batchTag: UInt8 = 0x04

    /// The layout this version writes. Opening a cache of layout 1 removes its target records
    /// (they had no members), which only makes the next listen of each target a full one.
    package static let format: UInt64 = 3
    /// The first layout with the field index (`CacheIndex`); opening an older cache builds it.
    package static let indexedFormat: UInt64 = 3
    package static let formatKey: [UInt8] = [metadataTag] + Array("format".utf8)
    package static let lastBatchIDKey: [UInt8] = [metadataTag] + Array("lastBatchID".utf8)

    private static let existingEntry: UInt8 = 0x01
    private static let missingEntry: UInt8 = 0x02
    private static let batchFormat: UInt8 = 0x01
    private static let targetFormat: UInt8 = 0x01

    // MARK: Keys

    /// The key prefix of every remote entry of `database`.
    private static func databasePrefix(_ database: DatabaseID) -> OrderedKey {
        var key = OrderedKey(capacity: 64)
        key.appendByte(documentTag)
        key.appendString(database.project)
        key.appendString(database.database)
        return key
    }

    /// The key of the remote entry of `name`.
    package static func documentKey(_ name: DocumentName) -> [UInt8] {
        var key = databasePrefix(name.databaseID)
        key.appendPath(name.path)
        return key.bytes
    }

    /// The prefix of the keys of the remote entries `LocalStore.documents(in:...)` reads.
    package static func documentScanPrefix(
        database: DatabaseID, parent: ResourcePath, collectionID: String, allDescendants: Bool
    ) -> [UInt8] {
        var key = databasePrefix(database)
        key.appendPathSegments(parent)
        if !allDescendants, !collectionID.isEmpty { key.appendPathSegment(collectionID) }
        return key.bytes
    }

    /// The document name a remote entry's key encodes.
    package static func documentName(fromKey key: [UInt8]) throws -> DocumentName {
        var reader = OrderedKeyReader(key, offset: 1)
        do {
            let project = try reader.readString()
            let database = try reader.readString()
            let path = try reader.readPath()
            guard reader.isAtEnd else { throw FirestoreError(.dataLoss, "trailing bytes") }
            return try DocumentName(try DatabaseID(project: project, database: database), path)
        } catch let error as FirestoreError {
            throw FirestoreError(.dataLoss, "The local cache holds a damaged document key: \(error.message)")
        }
    }

    /// The key of the target record `key`.
    package static func targetKey(_ key: String) -> [UInt8] {
        [targetTag] + Array(key.utf8)
    }

    /// The key of the mutation batch `batchID`.
    package static func batchKey(_ batchID: Int64) -> [UInt8] {
        var key: [UInt8] = [batchTag]
        appendUInt64(UInt64(bitPattern: batchID), to: &key)
        return key
    }

    /// The batch ID a mutation batch's key encodes.
    package static func batchID(fromKey key: [UInt8]) throws -> Int64 {
        var reader = StoredBytesReader(key, offset: 1, what: "mutation batch key")
        let id = Int64(bitPattern: try reader.readUInt64())
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes") }
        return id
    }

    // MARK: Values

    package static func appendUInt64(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    package static func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    package static func appendTimestamp(_ time: Timestamp, to bytes: inout [UInt8]) {
        appendUInt64(UInt64(bitPattern: time.seconds), to: &bytes)
        appendUInt32(UInt32(bitPattern: time.nanoseconds), to: &bytes)
    }

    /// An 8-byte big-endian integer value (the metadata entries).
    package static func encodeInteger(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        appendUInt64(value, to: &bytes)
        return bytes
    }

    package static func decodeInteger(_ bytes: [UInt8], what: String) throws -> UInt64 {
        var reader = StoredBytesReader(bytes, what: what)
        let value = try reader.readUInt64()
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes") }
        return value
    }

    /// The stored value of a remote entry.
    package static func encode(_ entry: RemoteEntry) -> [UInt8] {
        guard let document = entry.document else {
            var bytes: [UInt8] = [missingEntry]
            appendTimestamp(entry.readTime, to: &bytes)
            return bytes
        }
        let encoded = DocumentCodec.encode(document)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(13 + encoded.count)
        bytes.append(existingEntry)
        appendTimestamp(entry.readTime, to: &bytes)
        bytes.append(contentsOf: encoded)
        return bytes
    }

    /// Whether a stored remote entry is a document (not a known-missing entry), without decoding it.
    package static func entryHoldsDocument(_ bytes: [UInt8]) -> Bool {
        bytes.first == existingEntry
    }

    /// The read time of a stored remote entry, without decoding the document.
    package static func readTime(ofEntry bytes: [UInt8]) throws -> Timestamp {
        var reader = StoredBytesReader(bytes, offset: 1, what: "document entry")
        return try reader.readTimestamp()
    }

    /// The remote entry of `name` stored as `bytes`.
    package static func decodeEntry(_ bytes: [UInt8], name: DocumentName) throws -> RemoteEntry {
        var reader = StoredBytesReader(bytes, what: "entry of \(name.path)")
        let kind = try reader.readByte()
        let readTime = try reader.readTimestamp()
        switch kind {
        case missingEntry:
            guard reader.isAtEnd else { throw reader.corrupt("trailing bytes") }
            return RemoteEntry(document: nil, readTime: readTime)
        case existingEntry:
            let document = try reader.rest.withUnsafeBytes { try DocumentCodec.decodeDocument($0, name: name) }
            return RemoteEntry(document: document, readTime: readTime)
        default:
            throw reader.corrupt("unknown entry kind \(kind)")
        }
    }

    /// The stored value of a target record.
    package static func encode(_ target: TargetRecord) -> [UInt8] {
        var bytes: [UInt8] = [targetFormat]
        bytes.reserveCapacity(21 + target.resumeToken.count + target.members.count * 48)
        appendTimestamp(target.snapshotVersion, to: &bytes)
        appendUInt32(UInt32(target.resumeToken.count), to: &bytes)
        bytes.append(contentsOf: target.resumeToken)
        appendUInt32(UInt32(target.members.count), to: &bytes)
        for member in target.members {
            let name = Array(member.resourceName.utf8)
            appendUInt32(UInt32(name.count), to: &bytes)
            bytes.append(contentsOf: name)
        }
        return bytes
    }

    package static func decodeTarget(_ bytes: [UInt8], key: String) throws -> TargetRecord {
        var reader = StoredBytesReader(bytes, what: "record of target '\(key)'")
        let format = try reader.readByte()
        guard format == targetFormat else { throw reader.corrupt("unknown format \(format)") }
        let version = try reader.readTimestamp()
        let token = Array(try reader.readBytes(Int(try reader.readUInt32())))
        let count = Int(try reader.readUInt32())
        var members: [DocumentName] = []
        members.reserveCapacity(min(count, 4096))
        for _ in 0..<count {
            let name = String(decoding: try reader.readBytes(Int(try reader.readUInt32())), as: UTF8.self)
            guard let member = try? DocumentName(resourceName: name) else {
                throw reader.corrupt("a member's name '\(name)' is not a document name")
            }
            members.append(member)
        }
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes") }
        return TargetRecord(resumeToken: token, snapshotVersion: version, members: members)
    }

    /// The stored value of a mutation batch (its ID is the key).
    package static func encode(_ batch: MutationBatch) throws -> [UInt8] {
        var bytes: [UInt8] = [batchFormat]
        appendTimestamp(batch.localWriteTime, to: &bytes)
        appendUInt32(UInt32(batch.writes.count), to: &bytes)
        for write in batch.writes {
            let message: [UInt8]
            do {
                message = try write.proto.serializedBytes()
            } catch {
                throw FirestoreError(.internal, "Cannot encode a write to \(write.name.path) for the local cache: \(error)")
            }
            appendUInt32(UInt32(message.count), to: &bytes)
            bytes.append(contentsOf: message)
        }
        return bytes
    }

    package static func decodeBatch(_ bytes: [UInt8], batchID: Int64) throws -> MutationBatch {
        var reader = StoredBytesReader(bytes, what: "mutation batch \(batchID)")
        let format = try reader.readByte()
        guard format == batchFormat else { throw reader.corrupt("unknown format \(format)") }
        let localWriteTime = try reader.readTimestamp()
        let count = Int(try reader.readUInt32())
        var writes: [Write] = []
        writes.reserveCapacity(min(count, 1024))
        for _ in 0..<count {
            let length = Int(try reader.readUInt32())
            let message = try reader.readBytes(length)
            do {
                let proto = try Google_Firestore_V1_Write(serializedBytes: Array(message))
                writes.append(try Write(proto: proto, in: try database(of: proto)))
            } catch {
                throw reader.corrupt("a write cannot be decoded (\(error))")
            }
        }
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes") }
        return MutationBatch(batchID: batchID, localWriteTime: localWriteTime, writes: writes)
    }

    /// The database of the document a write message names.
    private static func database(of proto: Google_Firestore_V1_Write) throws -> DatabaseID {
        guard let name = proto.documentName else { throw FirestoreError(.dataLoss, "empty write operation") }
        return try DocumentName(resourceName: name).databaseID
    }

    /// The size a remote entry counts for (see `LocalStore`): its key's and value's bytes.
    package static func size(key: [UInt8], value: [UInt8]) -> Int64 {
        Int64(key.count + value.count)
    }
}
