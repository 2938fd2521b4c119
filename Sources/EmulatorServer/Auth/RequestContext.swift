import DocumentModel

/// Who made a request, as the server decided from its `Authorization` header: what security
/// rules see as `request.auth`, and whether rules apply at all.
///
/// ```swift
/// switch context.authentication {
/// case .owner: ...                         // admin: rules are bypassed
/// case .user(let token): token.uid         // request.auth.uid
/// case .unauthenticated: ...               // request.auth == null
/// }
/// ```
struct RequestContext: Sendable, Hashable {
    /// The caller's identity.
    enum Authentication: Sendable, Hashable {
        /// `Authorization: Bearer owner`: an administrator; security rules do not apply.
        case owner
        /// A JWT (signed or not, never verified, as in Google's emulator): `request.auth`.
        case user(AuthToken)
        /// No `Authorization` header: `request.auth` is null.
        case unauthenticated
    }

    /// The caller's identity.
    var authentication: Authentication

    init(authentication: Authentication) {
        self.authentication = authentication
    }

    /// Whether the caller bypasses security rules.
    var isAdmin: Bool { authentication == .owner }

    /// How request logs name the caller: `owner`, the user's uid (or `user` without one), or
    /// `unauthenticated`.
    var callerDescription: String {
        switch authentication {
        case .owner: "owner"
        case .user(let token): token.uid ?? "user"
        case .unauthenticated: "unauthenticated"
        }
    }
}

/// The claims of a user's ID token, as security rules see them in `request.auth`.
struct AuthToken: Sendable, Hashable {
    /// `request.auth.uid`: the token's `sub` claim (`nil` without one, even with `user_id`).
    let uid: String?
    /// `request.auth.token`: every claim of the token's payload.
    let claims: MapValue

    init(uid: String?, claims: MapValue) {
        self.uid = uid
        self.claims = claims
    }
}
