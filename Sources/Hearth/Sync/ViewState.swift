/// A listened target as this instance sees it: the documents in the query's order (at most one
/// for a document target) and where they come from.
struct ViewState: Sendable, Equatable {
    var documents: [LocalDocument]
    /// Whether the view is not known to match the server: its target is not current, or the
    /// network is away.
    var isFromCache: Bool
    /// Whether a pending write changed the view: one of its documents, or for a document
    /// target the document itself (a pending delete included).
    var hasPendingWrites: Bool
}
