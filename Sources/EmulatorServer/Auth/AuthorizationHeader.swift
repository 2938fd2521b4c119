import DocumentModel
import Foundation

/// Reads the `Authorization` header the way Google's Firestore emulator does.
///
/// - No header: unauthenticated.
/// - `Bearer owner` (the scheme and `owner` in any case): the owner, an administrator.
/// - `Bearer <jwt>`: three dot-separated base64url parts (the signature may be empty and is
///   never checked, nor is the header's `alg`) whose header and payload are JSON objects; the
///   payload's claims become `request.auth.token` and its `sub` the uid. A token without
///   `sub` (even with `user_id`) is a user without a uid: `request.auth` is set and
///   `request.auth.uid` is null, as Google's emulator has it.
///
/// Anything else is refused with INVALID_ARGUMENT `invalid jwt`, as the emulator answers; it
/// never answers UNAUTHENTICATED, on which the official clients retry in a tight loop. (For a
/// header that is not `Bearer` at all the emulator fails with UNKNOWN and no message; Hearth
/// says what is wrong instead.)
enum AuthorizationHeader {
    /// The caller that `value` (the header's value, `nil` when absent) names.
    static func parse(_ value: String?) throws -> RequestContext.Authentication {
        guard let value else { return .unauthenticated }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw FirestoreError.invalidArgument(
                "invalid authorization header: expected \"Bearer owner\" or \"Bearer <JWT>\"")
        }
        let token = parts[1]
        if token.lowercased() == "owner" { return .owner }
        return .user(try decodeJWT(token))
    }

    private static func decodeJWT(_ token: Substring) throws -> AuthToken {
        let invalid = FirestoreError.invalidArgument("invalid jwt")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = jsonObject(parts[0]), case .object = header,
            let payload = jsonObject(parts[1]), case .object(let members) = payload
        else { throw invalid }
        var claims = MapValue()
        for member in members { claims[member.key] = claimValue(member.value) }
        guard case .string(let uid)? = payload["sub"] else { return AuthToken(uid: nil, claims: claims) }
        return AuthToken(uid: uid, claims: claims)
    }

    /// A base64url part (padded or not) decoded and parsed as JSON, or `nil`.
    private static func jsonObject(_ part: Substring) -> JSONValue? {
        guard part.utf8.allSatisfy(isBase64URLByte) else { return nil }
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 = base64.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONValue(parsing: [UInt8](data))
    }

    private static func isBase64URLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="):
            true
        default: false
        }
    }

    /// A JSON claim as a Firestore value: integers that fit in 64 bits as integers, other
    /// numbers as doubles, objects as maps.
    private static func claimValue(_ json: JSONValue) -> Value {
        switch json {
        case .null: return .null
        case .bool(let bool): return .boolean(bool)
        case .number(let text): return Int64(text).map(Value.integer) ?? .double(Double(text) ?? .nan)
        case .string(let string): return .string(string)
        case .array(let elements): return .array(elements.map(claimValue))
        case .object(let members):
            return .map(MapValue(uniqueKeysWithValues: members.map { ($0.key, claimValue($0.value)) }))
        }
    }
}
