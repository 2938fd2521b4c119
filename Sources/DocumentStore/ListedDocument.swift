public import DocumentModel

/// One entry of a listing that also shows missing documents: a document, or the name of a
/// document that does not exist but has documents in its subcollections (what Firestore's
/// `ListDocuments` returns with `show_missing`).
public enum ListedDocument: Sendable, Hashable {
    case document(Document)
    case missing(DocumentName)

    /// The document's name.
    public var name: DocumentName {
        switch self {
        case .document(let document): document.name
        case .missing(let name): name
        }
    }
}
