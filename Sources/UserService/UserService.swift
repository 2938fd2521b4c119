public import Foundation
public import Hearth

/// The profile service of Docs/specs/004: user profiles in the `users` collection, through any
/// `Firestore`, so the same code runs on the embedded store and against an emulator.
///
/// Requests are made as the `Firestore` instance's identity, so security rules apply: with
/// `rules/firestore.rules`, a signed-in user reads any profile and writes only their own.
///
/// ```swift
/// let users = UserService(firestore: db.withIdentity(.user(uid: "alice")))
/// let alice = try await users.createUser(id: "alice", email: "alice@example.com", displayName: "Alice")
/// try await users.updateUser(id: "alice", data: ["displayName": "Alice L."])
/// let registration = users.observeUser(id: "alice") { result in print(result) }
/// ```
///
/// Unlike the spec's `UserService.shared`, a service is made for one `Firestore`: Hearth has no
/// process-wide default database, and the identity that writes is part of the instance.
public final class UserService: Sendable {
    /// The collection the profiles are in.
    public static let collectionPath = "users"

    /// The database, and the identity requests are made as.
    public let firestore: Firestore
    private let users: CollectionReference
    private let cache = UserCache()

    /// A service over `firestore`.
    public init(firestore: Firestore) {
        self.firestore = firestore
        users = firestore.collection(UserService.collectionPath)
    }

    private func reference(_ id: String) -> DocumentReference {
        users.document(id)
    }

    /// Creates (or replaces) the profile at `users/{id}`; `createdAt` and `updatedAt` are the
    /// server's timestamp of the write. Returns the profile as stored, and caches it.
    ///
    /// One request: the write replaces the whole document, and the server reports the time it
    /// set the timestamps to, so the stored profile is known without reading it back.
    ///
    /// - Throws: `invalidUserID`, `invalidEmail` or `validationFailed` for invalid data (nothing
    ///   is written then); `createFailed` when the write fails (e.g. the rules deny it).
    @discardableResult
    public func createUser(id: String, email: String, displayName: String, photoURL: String? = nil) async throws
        -> User
    {
        try UserValidator.validateID(id)
        try UserValidator.validateEmail(email)
        try UserValidator.validateDisplayName(displayName)
        if let photoURL { try UserValidator.validatePhotoURL(photoURL) }
        var user = User(id: id, email: email, displayName: displayName, photoURL: photoURL)
        cache.remove(id)
        let time: Date
        do {
            time = try await reference(id).setDataReturningServerTimestamp(from: user).dateValue
        } catch {
            throw UserServiceError.createFailed(error)
        }
        // As `Firestore.Decoder` reads the stored timestamps, so the profile equals a read of it.
        user.createdAt = time
        user.updatedAt = time
        cache.store(user)
        return user
    }

    /// The profile at `users/{id}`: from the memory cache when this service has it, else read
    /// (and then cached).
    ///
    /// - Throws: `invalidUserID`, `userNotFound`, or `fetchFailed` with the read's error.
    public func getUser(id: String) async throws -> User {
        try UserValidator.validateID(id)
        if let cached = cache.user(id) { return cached }
        return try await fetch(reference(id))
    }

    /// The profiles of `ids` that exist, in the order of `ids`, read concurrently (cached ones
    /// from the cache). Ids that are invalid or have no profile are left out; any other failure
    /// is thrown as `fetchFailed`.
    public func getUsers(ids: [String]) async throws -> [User] {
        let valid = ids.filter { (try? UserValidator.validateID($0)) != nil }
        let found = try await withThrowingTaskGroup(of: User?.self, returning: [String: User].self) { group in
            for id in Set(valid) {
                group.addTask {
                    do { return try await self.getUser(id: id) } catch UserServiceError.userNotFound { return nil }
                }
            }
            var users: [String: User] = [:]
            for try await user in group { if let user { users[user.id] = user } }
            return users
        }
        return valid.compactMap { found[$0] }
    }

    /// Changes the profile's `displayName` and/or `photoURL` (`NSNull` clears it) and sets
    /// `updatedAt` to the commit time. The cached profile is dropped.
    ///
    /// - Throws: `validationFailed` for other fields or invalid values (nothing is written),
    ///   `invalidUserID`, `userNotFound`, or `updateFailed` with the write's error.
    public func updateUser(id: String, data: [String: Any]) async throws {
        try UserValidator.validateID(id)
        try UserValidator.validateUpdate(data)
        var fields: [AnyHashable: Any] = ["updatedAt": FieldValue.serverTimestamp()]
        for (key, value) in data { fields[key] = value }
        // After the write, so that no snapshot of the old version read meanwhile stays cached.
        defer { cache.remove(id) }
        do {
            try await reference(id).updateData(fields)
        } catch let error as FirestoreError where error.code == .notFound {
            throw UserServiceError.userNotFound
        } catch {
            throw UserServiceError.updateFailed(error)
        }
    }

    /// Calls `completion` with the profile now, then after every change, until the
    /// registration is removed; each delivered profile refreshes the cache. A missing profile
    /// is delivered as `userNotFound`; an invalid id as `invalidUserID`, and a failed listen
    /// (e.g. denied by the rules) as `fetchFailed`, each of which ends the listener.
    ///
    /// `completion` is called in its isolation, one call at a time, in the order of the
    /// changes. Like a `Task`'s closure it inherits the caller's isolation: written in
    /// `@MainActor` code (or marked `@MainActor`) it runs on the main actor, so it can update a
    /// main-actor model directly; in an actor's method, when it uses `self`, on the actor;
    /// otherwise on the global executor.
    ///
    /// ```swift
    /// @MainActor func watchProfile() -> any ListenerRegistration {
    ///     users.observeUser(id: "alice") { result in
    ///         self.profile = try? result.get()   // on the main actor
    ///     }
    /// }
    /// ```
    public func observeUser(
        id: String,
        @_inheritActorContext completion: @escaping @isolated(any) @Sendable (Result<User, any Error>) -> Void
    ) -> any ListenerRegistration {
        let cache = cache
        let snapshots: DocumentSnapshotsSequence
        do {
            try UserValidator.validateID(id)
            snapshots = reference(id).snapshots
        } catch {
            return TaskRegistration(task: Task { await completion(.failure(error)) })
        }
        return TaskRegistration(
            task: Task {
                do {
                    for try await snapshot in snapshots {
                        guard !Task.isCancelled else { return }
                        await completion(Result { try UserService.decode(snapshot, into: cache) })
                    }
                } catch is CancellationError {
                } catch {
                    if !Task.isCancelled { await completion(.failure(UserServiceError.fetchFailed(error))) }
                }
            })
    }

    /// Forgets every cached profile.
    public func clearCache() {
        cache.removeAll()
    }

    private func fetch(_ ref: DocumentReference) async throws -> User {
        let snapshot: DocumentSnapshot
        do {
            snapshot = try await ref.getDocument()
        } catch {
            throw UserServiceError.fetchFailed(error)
        }
        return try UserService.decode(snapshot, into: cache)
    }

    /// The profile a snapshot holds, cached.
    private static func decode(_ snapshot: DocumentSnapshot, into cache: UserCache) throws(UserServiceError) -> User {
        guard snapshot.exists else {
            cache.remove(snapshot.documentID)
            throw .userNotFound
        }
        do {
            // A profile updated offline shows its update time as the local estimate until the
            // server sets it.
            let user = try snapshot.data(as: User.self, with: .estimate)
            cache.store(user)
            return user
        } catch {
            throw .fetchFailed(error)
        }
    }
}

/// The registration of an `observeUser` listener: the task that delivers the profiles.
private struct TaskRegistration: ListenerRegistration {
    let task: Task<Void, Never>

    func remove() {
        task.cancel()
    }
}
