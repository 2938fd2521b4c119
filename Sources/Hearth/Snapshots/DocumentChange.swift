/// How one document of a query's results changed between two snapshots of a listener.
public struct DocumentChange: Sendable {
    /// The kind of change.
    public enum ChangeType: Sendable, Hashable {
        /// The document entered the results.
        case added
        /// The document changed and stayed in the results (perhaps at another position).
        case modified
        /// The document left the results.
        case removed
    }

    /// The kind of change.
    public let type: ChangeType
    /// The document after the change (before it, for a removal).
    public let document: QueryDocumentSnapshot
    /// Its index before the change, with the snapshot's earlier changes applied; `-1` for an
    /// addition. (`UInt.max` in the Firebase SDK; `-1` here, as its other SDKs report.)
    public let oldIndex: Int
    /// Its index after the change; `-1` for a removal.
    public let newIndex: Int
}
