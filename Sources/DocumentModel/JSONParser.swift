extension JSONValue {
    /// Parses JSON text (RFC 8259): one value, optionally surrounded by whitespace.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the line and column of the first
    ///   syntax error, invalid UTF-8, an unpaired surrogate escape, or a duplicate object key.
    package init(parsing text: String) throws {
        try self.init(parsing: Array(text.utf8))
    }

    /// Parses JSON from UTF-8 bytes (see `init(parsing:)`).
    package init(parsing bytes: [UInt8]) throws {
        var parser = JSONParser(bytes: bytes)
        self = try parser.parseDocument()
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes.
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted, to keep recursion bounded.
    static let maxDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue() throws -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw failure("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character \(describe(byte)), expected a value")
        }
    }

    private mutating func parseObject() throws -> JSONValue {
        try enterContainer()
        var members: [JSONValue.Member] = []
        var keys: Set<[UInt8]> = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) {
            depth -= 1
            return .object([])
        }
        repeat {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let keyStart = index
            let key = try parseString()
            guard keys.insert(Array(key.utf8)).inserted else {
                index = keyStart
                throw failure("duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw failure("expected ':' after the key \"\(key)\"") }
            members.append(JSONValue.Member(key, try parseValue()))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { throw failure("expected ',' or '}' in an object") }
        depth -= 1
        return .object(members)
    }

    private mutating func parseArray() throws -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) {
            depth -= 1
            return .array([])
        }
        repeat {
            elements.append(try parseValue())
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { throw failure("expected ',' or ']' in an array") }
        depth -= 1
        return .array(elements)
    }

    /// Consumes the opening bracket of an array or object, checking the nesting limit.
    private mutating func enterContainer() throws {
        guard depth < JSONParser.maxDepth else {
            throw failure("nesting is deeper than \(JSONParser.maxDepth) levels")
        }
        depth += 1
        index += 1
    }

    private mutating func parseString() throws -> String {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else {
                index = start
                throw failure("unterminated string")
            }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    index = start
                    throw failure("a string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0..<0x20:
                index -= 1
                throw failure("control character \(describe(byte)) in a string must be escaped")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws {
        guard let byte = peek() else { throw failure("unterminated string") }
        index += 1
        let simple: UInt8? =
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            utf8.append(simple)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            index -= 2
            throw failure("invalid escape character \(describe(byte)) after a backslash")
        }
        var scalar = try parseHex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                throw failure("a high surrogate escape must be followed by a low surrogate escape")
            }
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw failure("a high surrogate escape must be followed by a low surrogate escape")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicodeScalar = Unicode.Scalar(scalar) else {
            throw failure("an unpaired low surrogate escape is not a character")
        }
        utf8.append(contentsOf: UTF8.encode(unicodeScalar)!)
    }

    private mutating func parseHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = hexDigit(byte) else {
                throw failure("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            if let byte = peek(), isDigit(byte) { throw failure("a number must not have a leading zero") }
        } else {
            try digits()
        }
        if consume(UInt8(ascii: ".")) { try digits() }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            try digits()
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func digits() throws {
        guard let byte = peek(), isDigit(byte) else { throw failure("expected a digit in a number") }
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private mutating func parseLiteral(_ literal: String, _ value: JSONValue) throws -> JSONValue {
        let literalBytes = Array(literal.utf8)
        guard bytes[index...].starts(with: literalBytes) else {
            throw failure("unexpected text, expected a value")
        }
        index += literalBytes.count
        return value
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16)
    }

    /// An error at the current position, with a 1-based line and column (in bytes).
    private func failure(_ reason: String) -> FirestoreError {
        let position = bytes[..<min(index, bytes.count)]
        let line = position.count { $0 == 0x0A } + 1
        let lineStart = position.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = position.count - lineStart + 1
        return FirestoreError.invalidArgument("Invalid JSON at line \(line), column \(column): \(reason)")
    }
}
