public import Hearth

/// One client of a `RulesTestEnvironment`: a signed-in user, or nobody. Its requests are
/// judged by the environment's rules.
///
/// ```swift
/// let alice = environment.authenticatedContext(uid: "alice")
/// try await assertSucceeds { try await alice.firestore().document("users/alice").getDocument() }
/// ```
public struct RulesTestContext: Sendable {
    private let database: Firestore

    init(database: Firestore) {
        self.database = database
    }

    /// The database as this context's identity (the same instance on every call, so its
    /// cache persists across calls, as in `@firebase/rules-unit-testing`).
    public func firestore() -> Firestore {
        database
    }

    /// Who the context's requests come from.
    public var identity: Identity { database.identity }
}
