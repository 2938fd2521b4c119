import DocumentStore
import SecurityRules

extension RequestContext {
    /// The caller as the store's security rules see it: the owner is the admin, a token is a
    /// signed-in user (`request.auth`), no header is unauthenticated.
    var identity: RequestIdentity {
        switch authentication {
        case .owner: .admin
        case .unauthenticated: .unauthenticated
        case .user(let token): .user(RulesAuth(uid: token.uid ?? "", token: token.claims))
        }
    }
}
