import DocumentModel

/// The location of one document: read it, write it, listen to it.
///
/// ```swift
/// let alice = db.collection("users").document("alice")
/// try await alice.setData(["name": "Alice", "visits": 0])
/// try await alice.updateData(["visits": FieldValue.increment(Int64(1))])
/// let snapshot = try await alice.getDocument()
/// try await alice.delete()
/// ```
///
/// An invalid path (an odd number of segments, an empty id) is reported as
/// `FirestoreError.invalidArgument` by the first operation that uses the reference.
public final class DocumentReference: Sendable {
    /// The database of the document.
    public let firestore: Firestore
    /// The path from the database root (`"users/alice"`).
    public let path: String
    let resolved: Result<DocumentName, FirestoreError>

    convenience init(firestore: Firestore, path: String) {
        self.init(firestore: firestore, path: path, resolved: DocumentReference.resolve(path, in: firestore.database))
    }

    /// A reference whose path `path` is already resolved (or known invalid).
    init(firestore: Firestore, path: String, resolved: Result<DocumentName, FirestoreError>) {
        self.firestore = firestore
        self.path = path
        self.resolved = resolved
    }

    /// The document name of `path` in `database`, or why it is not a document path.
    private static func resolve(_ path: String, in database: DatabaseID) -> Result<DocumentName, FirestoreError> {
        Result {
            let resourcePath = try ResourcePath(path)
            guard resourcePath.isDocument else {
                throw FirestoreError.invalidArgument(
                    "Invalid document reference. Document references must have an even number of segments, but \(path) has \(resourcePath.segments.count)")
            }
            return try DocumentName(database, resourcePath)
        }.mapError(FirestoreError.wrapping)
    }

    convenience init(name: DocumentName, firestore: Firestore) {
        self.init(firestore: firestore, path: name.path.description)
    }

    /// The document's id, the last segment of its path.
    public var documentID: String {
        path.split(separator: "/").last.map(String.init) ?? ""
    }

    /// The collection the document is in.
    public var parent: CollectionReference {
        var segments = path.split(separator: "/")
        segments.removeLast()
        return CollectionReference(firestore: firestore, path: segments.joined(separator: "/"))
    }

    /// The subcollection `collectionPath` of this document.
    public func collection(_ collectionPath: String) -> CollectionReference {
        CollectionReference(firestore: firestore, path: "\(path)/\(collectionPath)")
    }

    /// The document's full name, or the error that makes the path invalid.
    func resolvedName() throws -> DocumentName {
        try resolved.get()
    }
}

extension DocumentReference: Hashable {
    public static func == (lhs: DocumentReference, rhs: DocumentReference) -> Bool {
        lhs.firestore.database == rhs.firestore.database && lhs.path == rhs.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
    }
}

extension DocumentReference: CustomStringConvertible {
    public var description: String { "DocumentReference(\(path))" }
}
