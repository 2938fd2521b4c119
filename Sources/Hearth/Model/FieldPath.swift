import DocumentModel

/// A path to a field, as a list of field names: `FieldPath(["address", "city"])` names the
/// field `city` inside the map `address`, whatever characters the names contain.
///
/// Dotted strings passed to `whereField(_:...)`, `order(by:)` or `updateData` are split at dots;
/// a `FieldPath` never is.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The field names, outermost first.
    public let fieldNames: [String]

    /// A path from its field names.
    public init(_ fieldNames: [String]) {
        self.fieldNames = fieldNames
    }

    /// The special path that stands for the document's ID in queries (`__name__`).
    public static func documentID() -> FieldPath {
        FieldPath(["__name__"])
    }

    /// The path in Firestore's dotted form, back-quoting names that need it.
    public var description: String {
        fieldNames.map(DocumentModel.FieldPath.quotedIfNeeded).joined(separator: ".")
    }

    /// The validated model path.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for an empty path or empty field name.
    func modelPath() throws -> DocumentModel.FieldPath {
        guard !fieldNames.isEmpty else {
            throw FirestoreError.invalidArgument("Invalid field path. Provide at least one field name.")
        }
        return try DocumentModel.FieldPath(segments: fieldNames)
    }

    /// A dotted field path string (`"address.city"`), split at its dots as the SDK splits it.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for an empty string or an empty name between dots.
    static func parsingDots(_ text: String) throws -> DocumentModel.FieldPath {
        let names = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty, !names.contains(where: \.isEmpty) else {
            throw FirestoreError.invalidArgument(
                "Invalid field path (\(text)). Paths must not be empty, begin with '.', end with '.', or contain '..'")
        }
        return try DocumentModel.FieldPath(segments: names)
    }
}
