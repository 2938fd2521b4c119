/// A JSON object being read as part of a query, with the path of members for error messages.
struct QueryJSON {
    private let members: [JSONValue.Member]
    private let path: String

    init(_ json: JSONValue, at path: String) throws {
        guard case .object(let members) = json else {
            throw FirestoreError.invalidArgument("\(path) must be an object, not \(json.kindDescription)")
        }
        self.members = members
        self.path = path
    }

    /// The first present member among `names` (JSON name and proto name of one field).
    subscript(_ names: String...) -> JSONValue? {
        for name in names {
            if let member = members.first(where: { utf8Equal($0.key, name) }) { return member.value }
        }
        return nil
    }

    /// Refuses members other than `names`.
    func allowOnly(_ names: Set<String>) throws {
        if let unknown = members.first(where: { !names.contains($0.key) }) {
            throw FirestoreError.invalidArgument("Unknown member '\(unknown.key)' in \(path)")
        }
    }

    func string(_ names: String...) throws -> String? {
        guard let value = first(names) else { return nil }
        guard case .string(let text) = value else {
            throw FirestoreError.invalidArgument("\(path).\(names[0]) must be a string, not \(value.kindDescription)")
        }
        return text
    }

    func bool(_ names: String...) throws -> Bool? {
        guard let value = first(names) else { return nil }
        guard case .bool(let flag) = value else {
            throw FirestoreError.invalidArgument("\(path).\(names[0]) must be a boolean, not \(value.kindDescription)")
        }
        return flag
    }

    func array(_ names: String...) throws -> [JSONValue]? {
        guard let value = first(names) else { return nil }
        guard case .array(let elements) = value else {
            throw FirestoreError.invalidArgument("\(path).\(names[0]) must be an array, not \(value.kindDescription)")
        }
        return elements
    }

    func integer(_ names: String...) throws -> Int64? {
        guard let value = first(names) else { return nil }
        return try QueryJSON.integer(value, at: "\(path).\(names[0])")
    }

    private func first(_ names: [String]) -> JSONValue? {
        for name in names {
            if let member = members.first(where: { utf8Equal($0.key, name) }) { return member.value }
        }
        return nil
    }

    /// An int32 or int64 as proto3 JSON writes it: a number or a decimal string.
    static func integer(_ value: JSONValue, at path: String) throws -> Int64 {
        switch value {
        case .number(let text), .string(let text):
            guard let integer = Int64(text) else {
                throw FirestoreError.invalidArgument("\(path) must be an integer, got '\(text)'")
            }
            return integer
        default:
            throw FirestoreError.invalidArgument("\(path) must be an integer, not \(value.kindDescription)")
        }
    }

    /// A `FieldReference` object, `{"fieldPath": "a.b"}`.
    static func fieldReference(_ json: JSONValue, at path: String) throws -> FieldPath {
        let object = try QueryJSON(json, at: path)
        try object.allowOnly(["fieldPath", "field_path"])
        guard let text = try object.string("fieldPath", "field_path") else {
            throw FirestoreError.invalidArgument("\(path) needs a fieldPath")
        }
        return try FieldPath(text)
    }
}
