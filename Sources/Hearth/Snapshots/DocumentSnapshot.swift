import DocumentModel
import Foundation

/// A document as read at one time, or the knowledge that it does not exist.
///
/// ```swift
/// let snapshot = try await db.document("users/alice").getDocument()
/// if snapshot.exists { print(snapshot.get("name") as? String ?? "") }
/// let user = try snapshot.data(as: User.self)
/// ```
public class DocumentSnapshot: @unchecked Sendable {
    /// The document read.
    public let reference: DocumentReference
    /// Where the data came from.
    public let metadata: SnapshotMetadata
    /// The document, or `nil` if it does not exist.
    let document: Document?

    init(reference: DocumentReference, document: Document?, metadata: SnapshotMetadata) {
        self.reference = reference
        self.document = document
        self.metadata = metadata
    }

    /// The document's id, the last segment of its path.
    public var documentID: String { reference.documentID }

    /// Whether the document exists.
    public var exists: Bool { document != nil }

    /// The time the document was created, if it exists.
    public var createTime: Timestamp? { document?.createTime }

    /// The time the document was last changed, if it exists.
    public var updateTime: Timestamp? { document?.updateTime }

    /// The fields, or `nil` if the document does not exist. Values are `Int`, `Double`,
    /// `String`, `Bool`, `Timestamp`, `GeoPoint`, `Data`, `DocumentReference`, `NSNull`,
    /// `[Any]` and `[String: Any]`.
    public func data() -> [String: Any]? {
        document.map { ValueConverter.dictionary($0.fields, firestore: reference.firestore) }
    }

    /// The value at a dotted field path (`"address.city"`), or `nil` if absent.
    public func get(_ field: String) -> Any? {
        guard let path = try? FieldPath.parsingDots(field) else { return nil }
        return value(at: path)
    }

    /// The value at `path`, or `nil` if absent.
    public func get(_ path: FieldPath) -> Any? {
        guard let path = try? path.modelPath() else { return nil }
        return value(at: path)
    }

    /// A shorthand for `get(_:)`.
    public subscript(field: String) -> Any? { self.get(field) }

    private func value(at path: DocumentModel.FieldPath) -> Any? {
        document?.fields.value(at: path).map { ValueConverter.swiftValue($0, firestore: reference.firestore) }
    }
}

extension DocumentSnapshot: Equatable {
    /// Snapshots are equal when they show the same document in the same state from the same source.
    public static func == (lhs: DocumentSnapshot, rhs: DocumentSnapshot) -> Bool {
        lhs.reference == rhs.reference && lhs.metadata == rhs.metadata && lhs.document == rhs.document
    }
}

/// A document that a query returned: it always exists.
public final class QueryDocumentSnapshot: DocumentSnapshot, @unchecked Sendable {
    init(_ document: Document, firestore: Firestore, metadata: SnapshotMetadata) {
        super.init(
            reference: DocumentReference(name: document.name, firestore: firestore), document: document,
            metadata: metadata)
    }

    /// The fields (see `DocumentSnapshot.data()`).
    public override func data() -> [String: Any] {
        ValueConverter.dictionary(document?.fields ?? MapValue(), firestore: reference.firestore)
    }
}
