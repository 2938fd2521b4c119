import DocumentStore
import Hearth
import Synchronization

/// The request identities last made for signed-in identities, each reused while the project and
/// the second are the same: the token's times are whole seconds, so it is the same token, and a
/// burst of requests does not rebuild the claims each time.
final class RequestIdentityCache: Sendable {
    private struct Key: Hashable {
        var kind: Identity.Kind
        var project: String
    }

    private struct Entry {
        var second: Int64
        var identity: RequestIdentity
    }

    /// At most this many identities are kept; the cache starts over when it is full.
    private static let capacity = 64

    private let entries = Mutex<[Key: Entry]>([:])

    /// The identity for `identity` and `project` at `second`: the cached one, or `make()`'s, then cached.
    func identity(
        for identity: Identity, project: String, second: Int64, make: () throws -> RequestIdentity
    ) rethrows -> RequestIdentity {
        let key = Key(kind: identity.kind, project: project)
        if let cached = entries.withLock({ $0[key] }), cached.second == second {
            return cached.identity
        }
        let made = try make()
        entries.withLock { entries in
            if entries.count >= Self.capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(second: second, identity: made)
        }
        return made
    }
}
