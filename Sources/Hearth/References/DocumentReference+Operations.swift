import DocumentModel

extension DocumentReference {
    /// Reads the document.
    ///
    /// - Parameter source: `.cache` answers from what this instance has already seen (throwing
    ///   `.unavailable` if it has not seen the document); `.default` falls back to it only
    ///   when the database is unavailable.
    /// - Throws: `FirestoreError`, e.g. `.permissionDenied` when the rules deny the read.
    public func getDocument(source: FirestoreSource = .default) async throws -> DocumentSnapshot {
        let name = try resolvedName()
        if source == .cache { return try cachedSnapshot(name) }
        do {
            let (_, documents) = try await firestore.backend.lookup([name], transaction: nil, as: firestore.identity)
            firestore.cache.record(documents[0], name: name)
            return DocumentSnapshot(reference: self, document: documents[0], metadata: SnapshotMetadata(isFromCache: false))
        } catch let error as FirestoreError where error.code == .unavailable && source == .default {
            guard firestore.cache.document(name) != nil else { throw error }
            return try cachedSnapshot(name)
        }
    }

    private func cachedSnapshot(_ name: DocumentName) throws -> DocumentSnapshot {
        guard let cached = firestore.cache.document(name) else {
            throw FirestoreError(
                .unavailable,
                "Failed to get document from cache. (However, this document may exist on the server. Run again "
                    + "without setting source to FirestoreSourceCache to attempt to retrieve the document from the server.)")
        }
        return DocumentSnapshot(reference: self, document: cached, metadata: SnapshotMetadata(isFromCache: true))
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
