package import DocumentModel
package import Foundation

/// Who a `Firestore` instance acts as. Security rules judge every request by it, the same way on
/// both backends.
///
/// ```swift
/// let admin = db.withIdentity(.admin)                     // bypasses rules
/// let alice = db.withIdentity(.user(uid: "alice", claims: ["admin": true]))
/// let guest = db.withIdentity(.unauthenticated)           // request.auth == null
/// ```
public struct Identity: Sendable, Equatable, CustomStringConvertible {
    /// Which identity this is (for the backends).
    package enum Kind: Sendable, Hashable {
        case admin
        case unauthenticated
        case user(uid: String, claims: MapValue)
    }

    package let kind: Kind
    /// Why the claims could not be used, reported by the first request.
    package let claimsError: FirestoreError?

    private init(kind: Kind, claimsError: FirestoreError?) {
        self.kind = kind
        self.claimsError = claimsError
    }

    /// Rules are bypassed, as for the emulators' `Authorization: Bearer owner`.
    public static let admin = Identity(kind: .admin, claimsError: nil)

    /// No credentials: `request.auth` is null.
    public static let unauthenticated = Identity(kind: .unauthenticated, claimsError: nil)

    /// A signed-in user: `request.auth.uid` is `uid`, and `request.auth.token` holds `claims`
    /// (strings, numbers, booleans, arrays and maps of them) over the standard claims of a
    /// Firebase ID token (`sub` and `user_id` are the uid; `iss`, `aud`, `iat`, `exp`,
    /// `auth_time`, `firebase.sign_in_provider` "custom"), as `@firebase/rules-unit-testing` makes them.
    public static func user(uid: String, claims: [String: any Sendable] = [:]) -> Identity {
        do {
            var token = MapValue()
            for (key, value) in claims { token[key] = try ValueConverter.value(fromClaim: value, key: key) }
            return Identity(kind: .user(uid: uid, claims: token), claimsError: nil)
        } catch {
            return Identity(kind: .user(uid: uid, claims: MapValue()), claimsError: .wrapping(error))
        }
    }

    /// The uid of a signed-in user, else `nil`.
    public var uid: String? {
        if case .user(let uid, _) = kind { return uid }
        return nil
    }

    public var description: String {
        switch kind {
        case .admin: "admin"
        case .unauthenticated: "unauthenticated"
        case .user(let uid, _): "user \(uid)"
        }
    }

    /// Identities are equal when they are the same user with the same claims (or both admin,
    /// or both unauthenticated).
    public static func == (lhs: Identity, rhs: Identity) -> Bool {
        lhs.kind == rhs.kind && lhs.claimsError == rhs.claimsError
    }

    /// The ID token's claims of a signed-in user for `project` (custom claims win over the
    /// standard ones, except the uid's); `nil` for the admin and unauthenticated identities.
    package func token(project: String, now: Date = Date()) throws -> MapValue? {
        if let claimsError { throw claimsError }
        guard case .user(let uid, let claims) = kind else { return nil }
        let seconds = Int64(now.timeIntervalSince1970)
        var token: MapValue = [
            "iss": .string("https://securetoken.google.com/\(project)"), "aud": .string(project),
            "iat": .integer(seconds), "exp": .integer(seconds + 3600), "auth_time": .integer(seconds),
            "firebase": ["sign_in_provider": "custom", "identities": .map(MapValue())],
        ]
        for entry in claims { token[entry.key] = entry.value }
        token["sub"] = .string(uid)
        token["user_id"] = .string(uid)
        return token
    }
}
