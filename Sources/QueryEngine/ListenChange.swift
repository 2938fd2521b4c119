public import DocumentModel

/// One change of a document in a listener's results.
public struct ListenChange: Sendable, Hashable {
    /// The kind of change.
    public enum Kind: Sendable, Hashable {
        case added
        case modified
        case removed
    }

    /// The kind of change.
    public var kind: Kind
    /// The document after the change (before it, for a removal).
    public var document: Document
    /// Its index before the change, with all earlier changes of the snapshot applied; -1 for
    /// an addition.
    public var oldIndex: Int
    /// Its index after the change; -1 for a removal.
    public var newIndex: Int
}
