/// The operation a request asks the rules to allow. `read` in a rule covers `get` and `list`,
/// `write` covers `create`, `update` and `delete`.
public enum RulesMethod: String, Sendable, Hashable, CaseIterable {
    /// Reading one document.
    case get
    /// A query or a collection listing.
    case list
    /// Writing a document that does not exist yet.
    case create
    /// Writing a document that exists.
    case update
    /// Deleting a document.
    case delete

    /// Whether the method writes.
    public var isWrite: Bool {
        switch self {
        case .create, .update, .delete: true
        case .get, .list: false
        }
    }
}
