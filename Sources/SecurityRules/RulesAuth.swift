public import DocumentModel

/// The signed-in user of a request: `request.auth` in rules.
///
/// ```swift
/// let auth = RulesAuth(uid: "alice", token: ["email": "alice@example.com", "admin": true])
/// ```
public struct RulesAuth: Sendable, Hashable {
    /// `request.auth.uid`.
    public var uid: String
    /// `request.auth.token`: every claim of the ID token (`sub`, `email`, `firebase`, custom claims).
    public var token: MapValue

    /// Creates the auth of a user.
    public init(uid: String, token: MapValue = MapValue()) {
        self.uid = uid
        self.token = token
    }
}
