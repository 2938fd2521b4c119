public import DocumentModel
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
    /// The document, or `nil` if it does not exist; pending server timestamps hold their
    /// estimate.
    let document: Document?
    /// The fields set by pending server timestamps, and their values before.
    let pendingServerTimestamps: [DocumentModel.FieldPath: Value?]

    init(
        reference: DocumentReference, document: Document?, metadata: SnapshotMetadata,
        pendingServerTimestamps: [DocumentModel.FieldPath: Value?] = [:]
    ) {
        self.reference = reference
        self.document = document
        self.metadata = metadata
        self.pendingServerTimestamps = pendingServerTimestamps
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
    /// `[Any]` and `[String: Any]`. A server timestamp still pending is `NSNull`.
    public func data() -> [String: Any]? {
        data(with: .none)
    }

    /// The fields, with server timestamps still pending shown as `behavior` asks.
    public func data(with behavior: ServerTimestampBehavior) -> [String: Any]? {
        fields(behavior).map { ValueConverter.dictionary($0, firestore: reference.firestore) }
    }

    /// The fields as stored by the model, with pending server timestamps shown as `behavior` asks.
    func fields(_ behavior: ServerTimestampBehavior) -> MapValue? {
        document.map { LocalDocument.fields($0.fields, pendingServerTimestamps, behavior) }
    }

    /// The value at a dotted field path (`"address.city"`), or `nil` if absent.
    public func get(_ field: String) -> Any? {
        get(field, serverTimestampBehavior: .none)
    }

    /// The value at a dotted field path, with a pending server timestamp shown as `behavior` asks.
    public func get(_ field: String, serverTimestampBehavior behavior: ServerTimestampBehavior) -> Any? {
        guard let path = try? FieldPath.parsingDots(field) else { return nil }
        return value(at: path, behavior)
    }

    /// The value at `path`, or `nil` if absent.
    public func get(_ path: FieldPath) -> Any? {
        guard let path = try? path.modelPath() else { return nil }
        return value(at: path, .none)
    }

    /// A shorthand for `get(_:)`.
    public subscript(field: String) -> Any? { self.get(field) }

    private func value(at path: DocumentModel.FieldPath, _ behavior: ServerTimestampBehavior) -> Any? {
        fields(behavior)?.value(at: path).map { ValueConverter.swiftValue($0, firestore: reference.firestore) }
    }
}

extension DocumentSnapshot: Equatable {
    /// Snapshots are equal when they show the same document in the same state from the same source.
    public static func == (lhs: DocumentSnapshot, rhs: DocumentSnapshot) -> Bool {
        lhs.reference == rhs.reference && lhs.metadata == rhs.metadata && lhs.document == rhs.document
            && lhs.pendingServerTimestamps == rhs.pendingServerTimestamps
    }
}

/// A document that a query returned: it always exists.
public final class QueryDocumentSnapshot: DocumentSnapshot, @unchecked Sendable {
    init(_ local: LocalDocument, firestore: Firestore, isFromCache: Bool) {
        super.init(
            reference: DocumentReference(name: local.name, firestore: firestore), document: local.document,
            metadata: SnapshotMetadata(hasPendingWrites: local.hasPendingWrites, isFromCache: isFromCache),
            pendingServerTimestamps: local.pendingServerTimestamps)
    }

    /// The fields (see `DocumentSnapshot.data()`).
    public override func data() -> [String: Any] {
        data(with: .none)
    }

    /// The fields, with server timestamps still pending shown as `behavior` asks.
    public override func data(with behavior: ServerTimestampBehavior) -> [String: Any] {
        ValueConverter.dictionary(fields(behavior) ?? MapValue(), firestore: reference.firestore)
    }
}
