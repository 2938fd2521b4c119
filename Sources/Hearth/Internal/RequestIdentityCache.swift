import DocumentStore
import Synchronization

/// The request identity last made for one signed-in `Identity`, reused while the project and
/// the second are the same: the token's times are whole seconds, so it is the same token, and
/// a burst of requests does not rebuild the claims each time.
final class RequestIdentityCache: Sendable {
    private struct Entry {
        var project: String
        var second: Int64
        var identity: RequestIdentity
    }

    private let entry = Mutex<Entry?>(nil)

    /// The identity for `project` at `second`: the cached one, or `make()`'s, then cached.
    func identity(project: String, second: Int64, make: () throws -> RequestIdentity) rethrows -> RequestIdentity {
        if let cached = entry.withLock({ $0 }), cached.second == second, cached.project == project {
            return cached.identity
        }
        let identity = try make()
        entry.withLock { $0 = Entry(project: project, second: second, identity: identity) }
        return identity
    }
}
