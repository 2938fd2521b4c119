extension JSONValue {
    /// The value as JSON text, object members in their order.
    ///
    /// Compact output has no whitespace at all; pretty output puts each member and element on
    /// its own line, indented by two spaces, with `": "` after keys and `{}` / `[]` for empty
    /// containers. Strings escape only `"`, `\` and control characters.
    public func serialized(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, indent: 0)
        return writer.output
    }
}

/// Writes `JSONValue`s as text.
struct JSONWriter {
    let pretty: Bool
    var output = ""

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .number(let text): output += text
        case .string(let string): writeString(string)
        case .array(let elements):
            writeContainer("[", "]", elements, indent: indent) { writer, element in
                writer.write(element, indent: indent + 1)
            }
        case .object(let members):
            writeContainer("{", "}", members, indent: indent) { writer, member in
                writer.writeString(member.key)
                writer.output += writer.pretty ? ": " : ":"
                writer.write(member.value, indent: indent + 1)
            }
        }
    }

    private mutating func writeContainer<Element>(
        _ open: String, _ close: String, _ elements: [Element], indent: Int,
        _ writeElement: (inout JSONWriter, Element) -> Void
    ) {
        output += open
        for (offset, element) in elements.enumerated() {
            if offset > 0 { output += "," }
            newline(indent: indent + 1)
            writeElement(&self, element)
        }
        if !elements.isEmpty { newline(indent: indent) }
        output += close
    }

    private mutating func newline(indent: Int) {
        guard pretty else { return }
        output += "\n" + String(repeating: "  ", count: indent)
    }

    private mutating func writeString(_ string: String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
