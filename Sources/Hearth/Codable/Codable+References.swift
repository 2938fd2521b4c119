public import DocumentModel

extension DocumentReference {
    /// Replaces the document's fields with `value` encoded by `Firestore.Encoder`.
    ///
    /// ```swift
    /// try await db.document("users/alice").setData(from: User(name: "Alice"))
    /// ```
    public func setData<T: Encodable>(from value: T) async throws {
        try await setDataReturningServerTimestamp(from: value)
    }

    /// Replaces the document's fields with `value`, as `setData(from:)` does, and returns the
    /// time the server set the write's server timestamps to (each nil `@ServerTimestamp` of
    /// `value`, each `FieldValue.serverTimestamp()`): what reading the document back would
    /// show in those fields, without that second request. A write without server timestamps
    /// returns its commit time.
    ///
    /// ```swift
    /// let time = try await db.document("posts/p1").setDataReturningServerTimestamp(from: Post(text: "hi"))
    /// print(time.dateValue)   // the post's createdAt, as stored
    /// ```
    @discardableResult
    public func setDataReturningServerTimestamp<T: Encodable>(from value: T) async throws -> Timestamp {
        let write = try WriteParser.set(try Firestore.Encoder().encodeFields(value), at: try resolvedName())
        let report = try await firestore.commit([write])
        for case (let transform, .timestamp(let time)) in zip(write.transforms, report.transformResults.first ?? [])
        where transform.kind == .serverTimestamp {
            return time
        }
        return report.commitTime
    }

    /// Writes `value`, merging with the document's fields when `merge` is true.
    public func setData<T: Encodable>(from value: T, merge: Bool) async throws {
        try await setData(try Firestore.Encoder().encode(value), merge: merge)
    }

    /// Writes only the fields `mergeFields` of `value`.
    public func setData<T: Encodable>(from value: T, mergeFields: [Any]) async throws {
        try await setData(try Firestore.Encoder().encode(value), mergeFields: mergeFields)
    }

    /// Reads the document and decodes it as `type`.
    ///
    /// - Throws: `DecodingError.valueNotFound` if the document does not exist, or the read's error.
    public func getDocument<T: Decodable>(as type: T.Type, source: FirestoreSource = .default) async throws -> T {
        try await getDocument(source: source).data(as: type)
    }
}

extension CollectionReference {
    /// Creates a document with an automatic id from `value`, and returns its reference.
    @discardableResult
    public func addDocument<T: Encodable>(from value: T) async throws -> DocumentReference {
        try await addDocument(data: try Firestore.Encoder().encode(value))
    }
}

extension DocumentSnapshot {
    /// The document decoded as `type` by `Firestore.Decoder` (`@DocumentID` properties get
    /// this document's id); a server timestamp still pending is shown as `behavior` asks
    /// (null by default, so a non-optional `Date` needs `.estimate` or `.previous`).
    ///
    /// - Throws: `DecodingError.valueNotFound` if the document does not exist, or a
    ///   `DecodingError` naming a missing or mistyped field.
    public func data<T: Decodable>(as type: T.Type, with behavior: ServerTimestampBehavior = .none) throws -> T {
        guard let fields = fields(behavior) else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(
                    codingPath: [], debugDescription: "Document '\(reference.path)' does not exist."))
        }
        return try Firestore.Decoder().decode(type, from: .map(fields), reference: reference)
    }
}

extension WriteBatch {
    /// Replaces `document`'s fields with `value` encoded by `Firestore.Encoder`.
    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference) throws -> WriteBatch {
        setData(try Firestore.Encoder().encode(value), forDocument: document)
    }

    /// Writes `value` into `document`, merging when `merge` is true.
    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference, merge: Bool) throws
        -> WriteBatch
    {
        setData(try Firestore.Encoder().encode(value), forDocument: document, merge: merge)
    }
}

extension Transaction {
    /// Replaces `document`'s fields with `value` encoded by `Firestore.Encoder`.
    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference) throws -> Transaction {
        setData(try Firestore.Encoder().encode(value), forDocument: document)
    }

    /// Writes `value` into `document`, merging when `merge` is true.
    @discardableResult
    public func setData<T: Encodable>(from value: T, forDocument document: DocumentReference, merge: Bool) throws
        -> Transaction
    {
        setData(try Firestore.Encoder().encode(value), forDocument: document, merge: merge)
    }
}
