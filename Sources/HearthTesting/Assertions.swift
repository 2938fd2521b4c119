import DocumentModel
public import Hearth

/// Expects `operation` to be allowed by the rules (to succeed), as
/// `@firebase/rules-unit-testing`'s `assertSucceeds`.
///
/// ```swift
/// let alice = environment.authenticatedContext(uid: "alice").firestore()
/// let snapshot = try await assertSucceeds { try await alice.document("users/alice").getDocument() }
/// ```
///
/// `operation` runs in the caller's isolation (`isolation` defaults to it), so it may capture
/// what the caller can use, and its result need not be `Sendable`: the assertion works the
/// same in a `@MainActor` test, in an actor's method, in a nonisolated function and in
/// top-level code.
///
/// - Returns: the operation's result.
/// - Throws: `RulesAssertionError` carrying the operation's error when it fails.
@discardableResult
public func assertSucceeds<Result>(
    fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
) async throws -> Result {
    do {
        return try await operation()
    } catch {
        throw RulesAssertionError(
            message: "Expected the request to succeed, but it failed: \(error)", underlying: error, fileID: fileID,
            line: line)
    }
}

/// Expects `operation` to be denied by the rules, as `@firebase/rules-unit-testing`'s
/// `assertFails`: it passes only on `PERMISSION_DENIED` (a `FirestoreError` with
/// `.permissionDenied`, possibly wrapped in the associated value of a service's error). Any
/// other error, or success, fails it, so a test cannot pass because of a typo or a missing
/// document.
///
/// ```swift
/// let bob = environment.authenticatedContext(uid: "bob").firestore()
/// try await assertFails { try await bob.document("users/alice").updateData(["displayName": "Mallory"]) }
/// ```
///
/// `operation` runs in the caller's isolation, as with `assertSucceeds`.
///
/// - Returns: the permission-denied error.
/// - Throws: `RulesAssertionError` when the operation succeeds or fails otherwise.
@discardableResult
public func assertFails<Result>(
    fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
) async throws -> FirestoreError {
    do {
        _ = try await operation()
    } catch {
        if let denied = permissionDenied(in: error) { return denied }
        throw RulesAssertionError(
            message: "Expected PERMISSION_DENIED, but the request failed with another error: \(error)",
            underlying: error, fileID: fileID, line: line)
    }
    throw RulesAssertionError(
        message: "Expected PERMISSION_DENIED, but the request succeeded", underlying: nil, fileID: fileID, line: line)
}

/// The `.permissionDenied` `FirestoreError` that `error` is, or wraps in an enum case's or a
/// struct's stored values (e.g. `UserServiceError.createFailed(error)`).
func permissionDenied(in error: any Error) -> FirestoreError? {
    if let error = error as? FirestoreError { return error.code == .permissionDenied ? error : nil }
    for child in Mirror(reflecting: error).children {
        if let nested = child.value as? any Error, let found = permissionDenied(in: nested) { return found }
        // An enum case with several associated values reflects them as one tuple.
        for element in Mirror(reflecting: child.value).children {
            if let nested = element.value as? any Error, let found = permissionDenied(in: nested) { return found }
        }
    }
    return nil
}

/// A failed `assertSucceeds` or `assertFails`: what was expected, what happened, and where.
public struct RulesAssertionError: Error, Sendable, CustomStringConvertible {
    /// What was expected and what happened.
    public let message: String
    /// The operation's error, if it threw one.
    public let underlying: (any Error)?
    /// The file of the assertion.
    public let fileID: String
    /// The line of the assertion.
    public let line: Int

    public var description: String { "\(fileID):\(line): \(message)" }
}
