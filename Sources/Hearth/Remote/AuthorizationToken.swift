import DocumentModel
import Foundation

/// The `Authorization` header value the Firestore emulators accept for an identity:
/// `Bearer owner` for the admin, an unsigned JWT (`alg: none`) carrying the user's claims for
/// a signed-in user, none for unauthenticated requests.
enum AuthorizationToken {
    static func header(for identity: Identity, project: String) throws -> String? {
        switch identity.kind {
        case .admin: return "Bearer owner"
        case .unauthenticated: return nil
        case .user:
            guard let token = try identity.token(project: project) else { return nil }
            let header = try base64URL(JSONSerialization.data(withJSONObject: ["alg": "none", "typ": "JWT"], options: [.sortedKeys]))
            let payload = try base64URL(JSONSerialization.data(withJSONObject: json(.map(token)), options: [.sortedKeys]))
            return "Bearer \(header).\(payload)."
        }
    }

    /// A claim value as a JSON object for `JSONSerialization`.
    private static func json(_ value: Value) -> Any {
        switch value {
        case .null: NSNull()
        case .boolean(let bool): bool
        case .integer(let integer): NSNumber(value: integer)
        case .double(let double): NSNumber(value: double)
        case .string(let string): string
        case .timestamp(let timestamp): timestamp.description
        case .bytes(let bytes): Data(bytes).base64EncodedString()
        case .reference(let name): name.resourceName
        case .geoPoint(let point): ["latitude": point.latitude, "longitude": point.longitude]
        case .array(let elements): elements.map(json)
        case .map(let map): Dictionary(uniqueKeysWithValues: map.map { ($0.key, json($0.value)) })
        }
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
