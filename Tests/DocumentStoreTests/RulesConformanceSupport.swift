import DocumentModel
import DocumentStore
import FirestoreWire
import SecurityRules

/// Reads the request parts of the security-rules conformance cases (their format is in
/// `Tests/SecurityRulesConformance/README.md`): writes in proto3 JSON and the token claims.
enum RulesConformanceCase {
    static let project = "demo-rules-conformance"

    static func string(_ json: JSONValue?) throws -> String {
        guard case .string(let text)? = json else { throw FirestoreError.invalidArgument("expected a string") }
        return text
    }

    static func array(_ json: JSONValue?) -> [JSONValue] {
        if case .array(let elements)? = json { return elements }
        return []
    }

    /// A document name relative to the case's database (`users/alice`).
    static func name(_ path: String, in database: DatabaseID) throws -> DocumentName {
        if path.hasPrefix("projects/") { return try DocumentName(resourceName: path) }
        return try DocumentName(database, path)
    }

    /// A `Write` message in proto3 JSON form.
    static func write(_ json: JSONValue, in database: DatabaseID) throws -> Write {
        var precondition = Precondition.none
        if let current = json["currentDocument"] {
            if case .bool(let exists)? = current["exists"] { precondition = .exists(exists) }
            if let time = current["updateTime"] { precondition = .updateTime(try Timestamp(rfc3339: try string(time))) }
        }
        if let deleted = json["delete"] {
            return .delete(try name(try string(deleted), in: database), precondition: precondition)
        }
        guard let update = json["update"] else { throw FirestoreError.invalidArgument("a write needs update or delete") }
        let documentName = try name(try string(update["name"]), in: database)
        let fields = try update["fields"].map(RESTJSON.decodeFields) ?? MapValue()
        let mask = try json["updateMask"].map { mask in try array(mask["fieldPaths"]).map { try FieldPath(try string($0)) } }
        let transforms = try array(json["updateTransforms"]).map(transform)
        return Write(
            name: documentName, operation: .update(fields: fields, mask: mask), transforms: transforms,
            precondition: precondition)
    }

    private static func transform(_ json: JSONValue) throws -> FieldTransform {
        let path = try FieldPath(try string(json["fieldPath"]))
        if json["setToServerValue"] != nil { return FieldTransform(path, .serverTimestamp) }
        if let operand = json["increment"] { return FieldTransform(path, .increment(try RESTJSON.decodeValue(operand))) }
        if let operand = json["maximum"] { return FieldTransform(path, .maximum(try RESTJSON.decodeValue(operand))) }
        if let operand = json["minimum"] { return FieldTransform(path, .minimum(try RESTJSON.decodeValue(operand))) }
        if let values = json["appendMissingElements"] {
            return FieldTransform(path, .appendMissingElements(try array(values["values"]).map(RESTJSON.decodeValue)))
        }
        if let values = json["removeAllFromArray"] {
            return FieldTransform(path, .removeAllFromArray(try array(values["values"]).map(RESTJSON.decodeValue)))
        }
        throw FirestoreError.invalidArgument("unknown field transform")
    }

    /// The identity of an unsigned JWT with the case's claims, as the recorder builds it.
    static func identity(_ auth: JSONValue?) throws -> RequestIdentity {
        guard let auth, auth != .null else { return .unauthenticated }
        let uid = try string(auth["uid"])
        var claims: MapValue = [
            "sub": .string(uid), "user_id": .string(uid), "iat": 1_700_000_000, "exp": 1_700_003_600,
            "auth_time": 1_700_000_000, "firebase": ["sign_in_provider": "custom"],
        ]
        if case .object(let members)? = auth["token"] {
            for member in members { claims[member.key] = try claimValue(member.value) }
        }
        return .user(RulesAuth(uid: uid, token: claims))
    }

    /// A JSON claim as a rules value (integers stay integers).
    private static func claimValue(_ json: JSONValue) throws -> Value {
        switch json {
        case .null: return .null
        case .bool(let flag): return .boolean(flag)
        case .number(let text): return Int64(text).map(Value.integer) ?? .double(Double(text) ?? .nan)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(try elements.map(claimValue))
        case .object(let members):
            return .map(MapValue(uniqueKeysWithValues: try members.map { ($0.key, try claimValue($0.value)) }))
        }
    }
}
