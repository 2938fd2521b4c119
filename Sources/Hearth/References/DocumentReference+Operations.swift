import DocumentModel

extension DocumentReference {
    /// Reads the document.
    ///
    /// - Parameter source: `.default` reads from the server and falls back to the local cache
    ///   when the server cannot be reached; `.server` reads from the server only; `.cache`
    ///   from the cache only (`.unavailable` if it does not know the document). Pending writes
    ///   of this instance are applied in every case.
    /// - Throws: `FirestoreError`, e.g. `.permissionDenied` when the rules deny the read.
    public func getDocument(source: FirestoreSource = .default) async throws -> DocumentSnapshot {
        let (overlay, isFromCache) = try await firestore.sync.getDocument(try resolvedName(), source: source)
        return DocumentSnapshot(
            reference: self, document: overlay.document,
            metadata: SnapshotMetadata(hasPendingWrites: overlay.hasPendingWrites, isFromCache: isFromCache),
            pendingServerTimestamps: overlay.pendingServerTimestamps)
    }

    /// Replaces the document's fields with `documentData`, creating the document if needed.
    /// `FieldValue` sentinels (except `delete()`) may appear in the data.
    public func setData(_ documentData: [String: Any]) async throws {
        let write = try WriteParser.set(documentData, at: try resolvedName())
        try await firestore.commit([write])
    }

    /// Writes `documentData`; with `merge`, only its fields (nested maps merged field by
    /// field), leaving the others, and `FieldValue.delete()` removes a field.
    public func setData(_ documentData: [String: Any], merge: Bool) async throws {
        let name = try resolvedName()
        let write = merge ? try WriteParser.merge(documentData, at: name) : try WriteParser.set(documentData, at: name)
        try await firestore.commit([write])
    }

    /// Writes only the fields `mergeFields` (dotted `String`s or `FieldPath`s) of `documentData`.
    public func setData(_ documentData: [String: Any], mergeFields: [Any]) async throws {
        let write = try WriteParser.merge(documentData, fields: try FieldMask.paths(mergeFields), at: try resolvedName())
        try await firestore.commit([write])
    }

    /// Updates fields of an existing document. Keys are dotted field paths (`"address.city"`)
    /// or `FieldPath`s; `FieldValue.delete()` removes a field.
    ///
    /// - Throws: `.notFound` if the document does not exist.
    public func updateData(_ fields: [AnyHashable: Any]) async throws {
        let write = try WriteParser.update(fields, at: try resolvedName())
        try await firestore.commit([write])
    }

    /// Deletes the document (succeeding if it does not exist). Its subcollections stay.
    public func delete() async throws {
        try await firestore.commit([.delete(try resolvedName())])
    }
}

/// The field paths of a `mergeFields:` list.
enum FieldMask {
    static func paths(_ fields: [Any]) throws -> [DocumentModel.FieldPath] {
        try fields.map { field in
            switch field {
            case let text as String: return try FieldPath.parsingDots(text)
            case let path as FieldPath: return try path.modelPath()
            default:
                throw FirestoreError.invalidArgument("mergeFields must hold String or FieldPath, not \(type(of: field))")
            }
        }
    }
}
