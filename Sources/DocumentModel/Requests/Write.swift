/// One write of a commit, shaped like Firestore's `Write` message: an update (with or without a
/// field mask) or a delete, field transforms, and a precondition.
///
/// The constructors give the five operations app code uses:
///
/// ```swift
/// try store.commit([
///     .create(users.alice, fields: ["email": "a@example.com"]),
///     .set(users.bob, fields: ["email": "b@example.com"]),
///     .setMerge(users.carol, fields: ["name": "Carol"], mask: [try FieldPath("name")]),
///     .update(users.dave, fields: ["age": 31], mask: [try FieldPath("age")]),
///     .delete(users.erin),
/// ])
/// ```
public struct Write: Sendable, Hashable {
    /// What the write does with the document's fields.
    public enum Operation: Sendable, Hashable {
        /// Replaces the fields (`mask == nil`), or, with a mask, sets the masked fields present in
        /// `fields` and deletes the masked fields absent from it, leaving the others.
        case update(fields: MapValue, mask: [FieldPath]?)
        /// Deletes the document.
        case delete
        /// Only applies the write's transforms to the current fields.
        case transform
    }

    /// The document written.
    public var name: DocumentName
    /// The operation.
    public var operation: Operation
    /// Transforms applied after the operation, in order.
    public var transforms: [FieldTransform]
    /// The condition the current document must meet.
    public var precondition: Precondition

    public init(
        name: DocumentName, operation: Operation, transforms: [FieldTransform] = [],
        precondition: Precondition = .none
    ) {
        self.name = name
        self.operation = operation
        self.transforms = transforms
        self.precondition = precondition
    }

    /// Replaces the document, creating it if needed.
    public static func set(_ name: DocumentName, fields: MapValue, transforms: [FieldTransform] = []) -> Write {
        Write(name: name, operation: .update(fields: fields, mask: nil), transforms: transforms)
    }

    /// Sets the masked fields, creating the document if needed (a set with merge).
    public static func setMerge(
        _ name: DocumentName, fields: MapValue, mask: [FieldPath], transforms: [FieldTransform] = []
    ) -> Write {
        Write(name: name, operation: .update(fields: fields, mask: mask), transforms: transforms)
    }

    /// Updates the masked fields of a document that must exist.
    public static func update(
        _ name: DocumentName, fields: MapValue, mask: [FieldPath], transforms: [FieldTransform] = []
    ) -> Write {
        Write(name: name, operation: .update(fields: fields, mask: mask), transforms: transforms,
              precondition: .exists(true))
    }

    /// Creates a document that must not exist yet.
    public static func create(_ name: DocumentName, fields: MapValue, transforms: [FieldTransform] = []) -> Write {
        Write(name: name, operation: .update(fields: fields, mask: nil), transforms: transforms,
              precondition: .exists(false))
    }

    /// Deletes a document; deleting a missing document succeeds unless a precondition says otherwise.
    public static func delete(_ name: DocumentName, precondition: Precondition = .none) -> Write {
        Write(name: name, operation: .delete, precondition: precondition)
    }
}
