import DocumentModel

/// How a caller names a field: a dotted string (split at its dots) or a `FieldPath`. Kept as
/// given, so that an aggregation can be looked up again by the same spelling.
enum FieldInput: Sendable, Hashable {
    case dotted(String)
    case path(FieldPath)

    /// The validated model path.
    func modelPath() throws -> DocumentModel.FieldPath {
        switch self {
        case .dotted(let text): try FieldPath.parsingDots(text)
        case .path(let path): try path.modelPath()
        }
    }
}
