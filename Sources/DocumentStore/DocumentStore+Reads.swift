public import DocumentModel
import LevelDB
import Synchronization

extension DocumentStore {
    /// The document as of `readTime` (the newest version if `nil`), or `nil` if it did not exist.
    ///
    /// Read as `identity` (the admin by default, which bypasses security rules), the rules'
    /// `get` must allow it: a missing document is judged with `resource == null`.
    ///
    /// - Throws: `.failedPrecondition` for a read time older than the retention window,
    ///   `.invalidArgument` for one in the future; `.permissionDenied` naming the rules
    ///   evaluated, as Google's emulator does, when the rules deny the read.
    public func document(
        _ name: DocumentName, readTime: Timestamp? = nil, as identity: RequestIdentity = .admin
    ) throws -> Document? {
        let version = try readVersion(for: readTime)
        let document = try DocumentStore.mapLevelDBErrors {
            return try readDocument(name, atVersion: version, cursor: LazyCursor(database))
        }
        try authorizeRead(name, document: document, as: identity)
        return document
    }

    /// Several documents read at one consistent read time, which is returned with them.
    ///
    /// The result has one entry per requested name, in order, `nil` for a missing document.
    public func documents(
        _ names: [DocumentName], readTime: Timestamp? = nil
    ) throws -> (readTime: Timestamp, documents: [Document?]) {
        let version = try readVersion(for: readTime)
        let documents = try DocumentStore.mapLevelDBErrors {
            let cursor = LazyCursor(database)
            return try names.map { try readDocument($0, atVersion: version, cursor: cursor) }
        }
        return (Timestamp(microsecondsSinceEpoch: version), documents)
    }

    /// The documents directly in `collection` (not in its subcollections) as of `readTime`, in
    /// name order, at most `limit` of them, starting after `startAfter` if given.
    public func listDocuments(
        in collection: ResourcePath, of databaseID: DatabaseID, readTime: Timestamp? = nil,
        startAfter: DocumentName? = nil, limit: Int = .max
    ) throws -> [Document] {
        guard collection.isCollection else {
            throw FirestoreError.invalidArgument("'\(collection)' is not a collection path")
        }
        let version = try readVersion(for: readTime)
        return try mapLevelDBErrors(reading: "The documents of collection '\(collection)'") {
            let reader = LazyCursor(database)
            let cursor = try reader.cursor()
            let prefix = StorageKeys.subtreePrefix(databaseID, collection)
            if let startAfter {
                var key = StorageKeys.databasePrefix(databaseID)
                key.appendPathSegments(startAfter.path)
                cursor.seek(to: KeyRange.successor(ofPrefix: key.bytes) ?? key.bytes)
            } else {
                cursor.seek(to: prefix)
            }
            var result: [Document] = []
            while result.count < limit, cursor.isValid, cursor.keyHasPrefix(prefix) {
                let (name, _) = try StorageKeys.decodeVersionKey(cursor.key)
                if name.path.segments.count == collection.segments.count + 1,
                    let document = try readDocument(name, atVersion: version, cursor: reader)
                {
                    result.append(document)
                }
                // Skip the rest of this document: its older versions and its subcollections.
                var childPrefix = StorageKeys.databasePrefix(databaseID)
                childPrefix.appendPathSegments(
                    try ResourcePath(segments: Array(name.path.segments.prefix(collection.segments.count + 1))))
                guard let next = KeyRange.successor(ofPrefix: childPrefix.bytes) else { break }
                cursor.seek(to: next)
            }
            try cursor.checkError()
            return result
        }
    }

    /// The commit version a read at `readTime` sees.
    func readVersion(for readTime: Timestamp?) throws -> Int64 {
        let last = lastCommittedVersion.load(ordering: .acquiring)
        guard let readTime else { return last }
        try WriteValidator.requireMicroseconds(readTime)
        let requested = readTime.microsecondsSinceEpoch
        let now = configuration.clock.now().microsecondsSinceEpoch
        guard requested <= max(now, last) else {
            throw FirestoreError.invalidArgument("The requested 'read_time' cannot be in the future. (\(readTime))")
        }
        guard requested >= now - configuration.retentionSeconds * 1_000_000 else {
            throw FirestoreError(
                .failedPrecondition,
                "The requested 'read_time' is too old. (\(readTime) is older than the retention window of "
                    + "\(configuration.retentionSeconds) seconds)")
        }
        return min(requested, last)
    }

    /// Reads the newest version of `name` at or before `version` with `cursor`.
    func readDocument(_ name: DocumentName, atVersion version: Int64, cursor: LazyCursor) throws -> Document? {
        guard let stored = try readStoredVersion(name, atVersion: version, cursor: cursor) else { return nil }
        return stored.document
    }

    /// The stored version of `name` visible at `version`, or `nil` if it never existed then.
    func readStoredVersion(_ name: DocumentName, atVersion version: Int64, cursor lazy: LazyCursor) throws -> StoredVersion? {
        try readStoredVersion(name, keyPrefix: StorageKeys.versionsPrefix(name), atVersion: version, cursor: lazy)
    }

    /// The stored version of `name`, whose versions start with `keyPrefix`
    /// (`StorageKeys.versionsPrefix(name)`), visible at `version`, or `nil` if it never existed then.
    func readStoredVersion(
        _ name: DocumentName, keyPrefix: [UInt8], atVersion version: Int64, cursor lazy: LazyCursor
    ) throws -> StoredVersion? {
        // The key of `version` is the document's versions prefix and 8 version bytes; the
        // newest version at or before it is the first key at or after it with that prefix.
        guard keyPrefix.withUnsafeBytes({ presence.mayContain(keyPrefix: $0) }) else { return nil }
        return try mapLevelDBErrors(reading: "Document '\(name.path)'") {
            let key = keyPrefix + StorageKeys.descending(version)
            let prefixCount = keyPrefix.count
            let cursor = try lazy.cursor()
            cursor.seek(to: key)
            // A damaged block makes the cursor skip to the next readable one and records the
            // error, so the error is checked whenever the cursor is not on this document.
            guard cursor.isValid, cursor.withKey({ found in
                key.withUnsafeBytes { wanted in
                    found.count >= prefixCount
                        && compareBytes(
                            UnsafeRawBufferPointer(rebasing: found.prefix(prefixCount)),
                            UnsafeRawBufferPointer(rebasing: wanted.prefix(prefixCount))) == 0
                }
            })
            else {
                try cursor.checkError()
                return nil
            }
            return try cursor.withValue { try StoredVersion.decode($0, name: name) }
        }
    }
}
