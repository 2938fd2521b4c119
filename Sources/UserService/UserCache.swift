import Synchronization

/// The profiles a `UserService` has read, kept in memory until they change (Docs/specs/004: an
/// indefinite cache, invalidated on updates).
final class UserCache: Sendable {
    private let users = Mutex<[String: User]>([:])

    func user(_ id: String) -> User? {
        users.withLock { $0[id] }
    }

    func store(_ user: User) {
        users.withLock { $0[user.id] = user }
    }

    func remove(_ id: String) {
        _ = users.withLock { $0.removeValue(forKey: id) }
    }

    func removeAll() {
        users.withLock { $0.removeAll() }
    }
}
