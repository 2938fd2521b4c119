extension JSONValue {
    /// The value as JSON text, object members in their order.
    ///
    /// Compact output has no whitespace at all; pretty output puts each member and element on
    /// its own line, indented by two spaces, with `": "` after keys and `{}` / `[]` for empty
    /// containers. Strings escape only `"`, `\` and control characters.
    package func serialized(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self)
        return writer.output
    }
}

/// Hearth's one writer of JSON text: `JSONValue`s (`serialized(pretty:)`), and JSON written
/// piece by piece where building a `JSONValue` first would cost too much, as the rules' coverage
/// values do on every evaluation.
///
/// The writer puts the separators: after `beginObject()`, each member is a `key(_:)` and one
/// value (a scalar, a whole `JSONValue`, or a container begun and ended); in an array, each
/// element is one value.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("line"); writer.number(3)
/// writer.key("tags"); writer.beginArray(); writer.string("a\"b"); writer.endArray()
/// writer.endObject()
/// writer.output  // {"line":3,"tags":["a\"b"]}
/// ```
package struct JSONWriter {
    /// Whether each member and element goes on its own line, indented by two spaces.
    package let pretty: Bool
    /// The JSON written so far.
    package private(set) var output = ""
    /// How many containers are open.
    private var depth = 0
    /// Whether the innermost open container has a member or element already, so the next one
    /// needs a comma.
    private var hasElements = false
    /// Whether a key was just written, so its value follows without a separator.
    private var afterKey = false

    /// A writer with nothing written yet.
    package init(pretty: Bool = false) {
        self.pretty = pretty
    }

    /// Writes a whole value.
    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let bool): self.bool(bool)
        case .number(let text): number(text)
        case .string(let string): self.string(string)
        case .array(let elements):
            beginArray()
            for element in elements { write(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members {
                key(member.key)
                write(member.value)
            }
            endObject()
        }
    }

    /// Opens an object: `key(_:)` and a value for each member follow, then `endObject()`.
    package mutating func beginObject() {
        open("{")
    }

    /// Closes the object opened last.
    package mutating func endObject() {
        close("}")
    }

    /// Opens an array: its elements follow, then `endArray()`.
    package mutating func beginArray() {
        open("[")
    }

    /// Closes the array opened last.
    package mutating func endArray() {
        close("]")
    }

    /// Writes the key of the next member of the open object.
    package mutating func key(_ key: String) {
        separate()
        appendQuoted(key)
        output += pretty ? ": " : ":"
        afterKey = true
    }

    /// Writes a string value, escaping `"`, `\` and control characters.
    package mutating func string(_ string: String) {
        beginValue()
        appendQuoted(string)
    }

    /// Writes a number given as its JSON text, such as `-12` or `1.5e3`.
    package mutating func number(_ text: String) {
        beginValue()
        output += text
    }

    /// Writes an integer.
    package mutating func number<Integer: BinaryInteger>(_ value: Integer) {
        number(String(value))
    }

    /// Writes `true` or `false`.
    package mutating func bool(_ value: Bool) {
        beginValue()
        output += value ? "true" : "false"
    }

    /// Writes `null`.
    package mutating func null() {
        beginValue()
        output += "null"
    }

    /// Writes a value that is JSON text already, written by a `JSONWriter` earlier (compact).
    package mutating func fragment(_ json: String) {
        beginValue()
        output += json
    }

    private mutating func open(_ bracket: String) {
        beginValue()
        output += bracket
        depth += 1
        hasElements = false
    }

    private mutating func close(_ bracket: String) {
        depth -= 1
        if hasElements { newline() }
        output += bracket
        // The container just closed is an element of the one around it.
        hasElements = true
    }

    /// Separates a value from the one before it, unless it is a member's value.
    private mutating func beginValue() {
        if afterKey {
            afterKey = false
        } else {
            separate()
        }
        hasElements = true
    }

    /// The comma and, in pretty output, the line break before a member or element.
    private mutating func separate() {
        if hasElements { output += "," }
        if depth > 0 { newline() }
    }

    private mutating func newline() {
        guard pretty else { return }
        output += "\n" + String(repeating: "  ", count: depth)
    }

    /// Appends `string` in quotes. Only ASCII bytes are escaped, so a string without any is
    /// appended whole, and otherwise the runs between them are.
    private mutating func appendQuoted(_ string: String) {
        output += "\""
        let utf8 = string.utf8
        let plain = utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain == true {
            output += string
            output += "\""
            return
        }
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output += string[runStart..<index]
                appendEscaped(byte)
                runStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output += string[runStart...]
        output += "\""
    }

    /// Appends the escape of `"`, `\` or a control character.
    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): output += "\\\""
        case UInt8(ascii: "\\"): output += "\\\\"
        case UInt8(ascii: "\n"): output += "\\n"
        case UInt8(ascii: "\r"): output += "\\r"
        case UInt8(ascii: "\t"): output += "\\t"
        case 0x08: output += "\\b"
        case 0x0C: output += "\\f"
        default:
            let hex = String(byte, radix: 16)
            output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
