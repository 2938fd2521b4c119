public import Foundation
public import Hearth
import Synchronization

/// The small part of Firebase Authentication the profile flow of Docs/specs/004 needs: sign-up
/// issues a uid and the identity (the emulator-style ID token) of the new user, then creates
/// their profile at `users/{uid}` *as that user*, so security rules judge the write as they
/// would judge the app's.
///
/// Accounts live in memory, as in the Firebase Auth emulator (which keeps passwords in clear
/// too); this is a test and development stand-in, not an identity provider.
///
/// ```swift
/// let auth = AuthenticationService(firestore: db)
/// let session = try await auth.signUp(email: "alice@example.com", password: "secret1")
/// session.user.displayName          // "alice": the email's local part by default
/// try await session.users.updateUser(id: session.uid, data: ["displayName": "Alice"])
/// ```
public final class AuthenticationService: Sendable {
    /// The shortest password accepted, as Firebase Authentication's `WEAK_PASSWORD` rule.
    public static let minimumPasswordLength = 6

    private struct Account {
        var uid: String
        var password: String
    }

    /// The database; sessions act on it as their user.
    public let firestore: Firestore
    private let accounts = Mutex<[String: Account]>([:])

    /// An authentication service whose users' requests go to `firestore`.
    public init(firestore: Firestore) {
        self.firestore = firestore
    }

    /// Creates an account with a new uid, signs it in, and creates its profile at `users/{uid}`
    /// as the new user (`displayName` defaults to the email's local part). Nothing is kept
    /// when the profile cannot be created.
    ///
    /// - Throws: `UserServiceError.invalidEmail` or `.validationFailed` (a weak password, an
    ///   email already in use, an invalid name or photo URL) before anything is written;
    ///   `.createFailed` when the profile write fails.
    public func signUp(email: String, password: String, displayName: String? = nil, photoURL: String? = nil)
        async throws -> AuthSession
    {
        try UserValidator.validateEmail(email)
        guard password.count >= AuthenticationService.minimumPasswordLength else {
            throw UserServiceError.validationFailed(
                "Password should be at least \(AuthenticationService.minimumPasswordLength) characters")
        }
        let name = displayName ?? String(email.prefix { $0 != "@" })
        try UserValidator.validateDisplayName(name)
        if let photoURL { try UserValidator.validatePhotoURL(photoURL) }
        let key = email.lowercased()
        let uid = AuthenticationService.newUID()
        try accounts.withLock { accounts throws(UserServiceError) in
            guard accounts[key] == nil else {
                throw .validationFailed("The email address is already in use by another account.")
            }
            accounts[key] = Account(uid: uid, password: password)
        }
        let users = userService(uid: uid, email: email)
        do {
            let user = try await users.createUser(id: uid, email: email, displayName: name, photoURL: photoURL)
            return AuthSession(uid: uid, identity: users.firestore.identity, users: users, user: user)
        } catch {
            _ = accounts.withLock { $0.removeValue(forKey: key) }
            throw error
        }
    }

    /// Signs in an existing account and reads its profile.
    ///
    /// - Throws: `UserServiceError.validationFailed` for an unknown email or a wrong password;
    ///   the profile read's errors (`userNotFound`, `fetchFailed`).
    public func signIn(email: String, password: String) async throws -> AuthSession {
        guard let account = accounts.withLock({ $0[email.lowercased()] }), account.password == password else {
            throw UserServiceError.validationFailed("The email or the password is wrong.")
        }
        let users = userService(uid: account.uid, email: email)
        let user = try await users.getUser(id: account.uid)
        return AuthSession(uid: account.uid, identity: users.firestore.identity, users: users, user: user)
    }

    /// A profile service acting as the user: their ID token carries the `email` claims and the
    /// `password` sign-in provider, as Firebase Authentication's do.
    private func userService(uid: String, email: String) -> UserService {
        let identity = Identity.user(
            uid: uid,
            claims: [
                "email": email, "email_verified": false,
                "firebase": ["sign_in_provider": "password", "identities": ["email": [email]]] as [String: any Sendable],
            ])
        return UserService(firestore: firestore.withIdentity(identity))
    }

    /// A new uid shaped like Firebase Authentication's: 28 letters and digits.
    static func newUID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<28).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
