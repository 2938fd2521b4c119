public import Foundation
public import Hearth

/// A user's profile, stored at `users/{uid}` with the fields of Docs/specs/004: `uid`, `email`,
/// `displayName`, `photoURL` (left out when `nil`), `createdAt` and `updatedAt`.
///
/// Encoded and decoded by Hearth's `Firestore.Encoder` and `Firestore.Decoder`. The two
/// timestamps are `@ServerTimestamp`s: a new profile leaves them `nil`, so they are written as
/// `FieldValue.serverTimestamp()` and the server sets them to the commit time; a profile read
/// back always has them.
///
/// ```swift
/// let user = try await users.getUser(id: uid)
/// print(user.displayName, user.createdAt ?? Date())
/// ```
public struct User: Identifiable, Codable, Equatable, Sendable {
    /// The Firebase Auth uid, which is also the document id (field `uid`).
    public let id: String
    /// The email address the account signed up with.
    public let email: String
    /// The name shown to other users: 1 to 50 characters.
    public var displayName: String
    /// An `http` or `https` URL of the profile photo, if any.
    public var photoURL: String?
    /// When the profile was created (the server's commit time).
    @ServerTimestamp public var createdAt: Date?
    /// When the profile last changed (the server's commit time).
    @ServerTimestamp public var updatedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id = "uid"
        case email, displayName, photoURL, createdAt, updatedAt
    }

    /// A profile; timestamps left `nil` are set by the server when the profile is written.
    public init(
        id: String, email: String, displayName: String, photoURL: String? = nil, createdAt: Date? = nil,
        updatedAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
