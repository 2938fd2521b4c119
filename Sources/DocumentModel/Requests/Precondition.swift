/// A condition on the current state of a document that a write requires.
public enum Precondition: Sendable, Hashable {
    /// No condition.
    case none
    /// The document must exist (`true`) or must not exist (`false`).
    case exists(Bool)
    /// The document must exist and have been last updated at exactly this time.
    case updateTime(Timestamp)
}
