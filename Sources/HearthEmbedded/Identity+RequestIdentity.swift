import DocumentModel
import DocumentStore
import Foundation
import Hearth
import SecurityRules

extension Identity {
    /// The identity as the store's rules see it, for a request to `project`; a signed-in user's
    /// is made at most once a second per project, through `cache`.
    func requestIdentity(project: String, cache: RequestIdentityCache) throws -> RequestIdentity {
        if let claimsError { throw claimsError }
        switch kind {
        case .admin: return .admin
        case .unauthenticated: return .unauthenticated
        case .user(let uid, _):
            let now = Date()
            return try cache.identity(for: self, project: project, second: Int64(now.timeIntervalSince1970)) {
                .user(RulesAuth(uid: uid, token: try token(project: project, now: now) ?? MapValue()))
            }
        }
    }
}
