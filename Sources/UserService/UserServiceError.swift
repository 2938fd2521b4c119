public import Foundation

/// What `UserService` and `AuthenticationService` throw, with the cases Docs/specs/004 names.
///
/// ```swift
/// do { _ = try await users.getUser(id: uid) }
/// catch UserServiceError.userNotFound { ... }
/// ```
public enum UserServiceError: Error, LocalizedError, Sendable {
    /// The user id is empty, or is not a valid document id.
    case invalidUserID
    /// The email address is not of the form `name@domain.tld`.
    case invalidEmail
    /// No profile exists at `users/{id}`.
    case userNotFound
    /// Writing a new profile failed (the underlying error, e.g. `FirestoreError.permissionDenied`).
    case createFailed(any Error)
    /// Updating a profile failed.
    case updateFailed(any Error)
    /// Reading a profile failed, or a stored profile could not be decoded.
    case fetchFailed(any Error)
    /// The data breaks a validation rule; the message names the field and the rule.
    case validationFailed(String)

    public var errorDescription: String? {
        switch self {
        case .invalidUserID: "The user id must be a non-empty document id without '/'."
        case .invalidEmail: "The email address is badly formatted."
        case .userNotFound: "No user profile exists with this id."
        case .createFailed(let error): "Creating the user profile failed: \(error)"
        case .updateFailed(let error): "Updating the user profile failed: \(error)"
        case .fetchFailed(let error): "Reading the user profile failed: \(error)"
        case .validationFailed(let message): "Invalid user profile: \(message)"
        }
    }
}
