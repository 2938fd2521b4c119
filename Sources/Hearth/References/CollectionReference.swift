import DocumentModel
import Foundation

/// A collection: a query over all its documents, and where new documents go.
///
/// ```swift
/// let users = db.collection("users")
/// let ref = try await users.addDocument(data: ["name": "Bob"])   // an automatic id
/// let alice = users.document("alice")
/// ```
public final class CollectionReference: Query, @unchecked Sendable {
    /// The path from the database root (`"users"`, `"users/alice/posts"`).
    public let path: String
    /// The parsed path, when it is a valid collection path.
    private let resourcePath: ResourcePath?

    init(firestore: Firestore, path: String) {
        self.path = path
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let collectionID = segments.popLast() ?? ""
        var state = QueryState(parent: segments.joined(separator: "/"), collectionID: collectionID, allDescendants: false)
        let resourcePath = path.isEmpty || segments.count % 2 != 0 ? nil : try? ResourcePath(path)
        self.resourcePath = resourcePath
        if resourcePath == nil {
            state.error = FirestoreError.invalidArgument(
                "Invalid collection reference. Collection references must have an odd number of segments, but \(path) has \(segments.count + 1)")
        }
        super.init(firestore: firestore, state: state)
    }

    /// The collection's id, the last segment of its path.
    public var collectionID: String { state.collectionID }

    /// The document the collection is under, or `nil` for a root collection.
    public var parent: DocumentReference? {
        state.parent.isEmpty ? nil : DocumentReference(firestore: firestore, path: state.parent)
    }

    /// A new document with an automatic id (20 random letters and digits, as the SDK makes them).
    public func document() -> DocumentReference {
        document(CollectionReference.autoID())
    }

    /// The document `documentPath` in this collection (a path may reach into subcollections).
    public func document(_ documentPath: String) -> DocumentReference {
        let fullPath = "\(path)/\(documentPath)"
        // A single id below a valid collection: only the id needs checking, not the whole path.
        guard let resourcePath, !documentPath.isEmpty, !documentPath.utf8.contains(UInt8(ascii: "/")),
            resourcePath.segments.count < ResourcePath.maxSegments
        else { return DocumentReference(firestore: firestore, path: fullPath) }
        let name = Result { try DocumentName(firestore.database, resourcePath.appending(documentPath)) }
        return DocumentReference(firestore: firestore, path: fullPath, resolved: name.mapError(FirestoreError.wrapping))
    }

    /// Creates a document with an automatic id and `data`, and returns its reference.
    @discardableResult
    public func addDocument(data: [String: Any]) async throws -> DocumentReference {
        let reference = document()
        try await reference.setData(data)
        return reference
    }

    static func autoID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }
}
