public import SecurityRules

/// Who makes a request, for security rules: the admin (rules bypassed, as with Google's
/// emulator's `Authorization: Bearer owner`), a signed-in user, or nobody.
public enum RequestIdentity: Sendable, Hashable {
    /// Bypasses security rules.
    case admin
    /// No credentials: `request.auth` is null.
    case unauthenticated
    /// A signed-in user: `request.auth` has the uid and the token's claims.
    case user(RulesAuth)

    /// Whether this is the admin, whom security rules never judge.
    public var isAdmin: Bool {
        if case .admin = self { return true }
        return false
    }

    /// `request.auth`, or `nil` for the admin and for unauthenticated requests.
    var auth: RulesAuth? {
        if case .user(let auth) = self { return auth }
        return nil
    }
}
