public import Hearth

/// A signed-in user: the uid, the identity their requests carry (on a remote emulator, the
/// unsigned ID token the emulators accept, with the `email` claim), a `Firestore` acting as
/// them, a `UserService` over it, and their profile as read when the session began.
public struct AuthSession: Sendable {
    /// The account's uid, also the id of the profile document.
    public let uid: String
    /// Who the session's requests come from (`request.auth.uid == uid` in the rules).
    public let identity: Identity
    /// The profile service, acting as this user (its `firestore` is the database as this user).
    public let users: UserService
    /// The user's profile when the session began.
    public let user: User

    /// The database, acting as this user.
    public var firestore: Firestore { users.firestore }
}
