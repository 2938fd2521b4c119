/// A JSON value that parses and prints exactly.
///
/// Numbers keep their JSON text, so an `Int64` or a `Double` never passes through a lossy type on
/// the way in or out; object members keep their order, and keys are compared by their UTF-8
/// bytes, as Firestore compares field names. This is the carrier for Firestore's REST JSON (see
/// `RESTJSON`).
///
/// ```swift
/// let json = try JSONValue(parsing: #"{"n": 9223372036854775807}"#)
/// json["n"]  // .number("9223372036854775807")
/// print(json.serialized(pretty: true))
/// ```
package enum JSONValue: Sendable, Equatable {
    /// One member of an object.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: JSONValue

        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }

        package static func == (lhs: Member, rhs: Member) -> Bool {
            utf8Equal(lhs.key, rhs.key) && lhs.value == rhs.value
        }
    }

    case null
    case bool(Bool)
    /// A number as its JSON text, such as `-12` or `1.5e3`; it must follow JSON's number syntax.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// The members in order; keys are unique by their UTF-8 bytes.
    case object([Member])

    /// The number `value`, written exactly.
    package init(_ value: Int64) {
        self = .number(String(value))
    }

    /// The finite number `value`, written with the fewest digits that read back as the same
    /// double (`0.1`, `1e+100`, `-0.0`).
    ///
    /// - Precondition: `value` is finite; JSON has no NaN or infinities.
    package init(_ value: Double) {
        precondition(value.isFinite, "JSON numbers must be finite")
        self = .number(value.description)
    }

    /// The value of the member `key` if this is an object that has one.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { utf8Equal($0.key, key) }?.value
    }

    /// The kind of value with an article, for error messages: `a string`, `an object`, `null`.
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
