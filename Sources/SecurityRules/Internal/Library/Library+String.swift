extension Library {
    static func invalidPattern(_ pattern: String, span: SourceSpan) -> RValue {
        RError.value("Invalid regular expression pattern. Pattern: \(pattern).", span: span)
    }

    static func regex(_ pattern: RValue, span: SourceSpan) -> Result<RulesRegex, RErrorValue> {
        guard case .string(let text) = pattern, let regex = RegexCache.shared.regex(text) else {
            if case .string(let text) = pattern { return .failure(RErrorValue(invalidPattern(text, span: span))) }
            return .failure(RErrorValue(RError.nullValue(span: span)))
        }
        return .success(regex)
    }

    static let stringMethods: [Method] = [
        Method("size", on: "string") { receiver, _, _, _ in
            guard case .string(let text) = receiver else { return .null }
            return .int(Int64(text.utf16.count))
        },
        Method("lower", on: "string") { receiver, _, _, _ in
            guard case .string(let text) = receiver else { return .null }
            return .string(asciiCase(text, upper: false))
        },
        Method("upper", on: "string") { receiver, _, _, _ in
            guard case .string(let text) = receiver else { return .null }
            return .string(asciiCase(text, upper: true))
        },
        Method("trim", on: "string") { receiver, _, _, _ in
            guard case .string(let text) = receiver else { return .null }
            // Java's trim: characters up to U+0020 at either end.
            let scalars = text.unicodeScalars
            guard let first = scalars.firstIndex(where: { $0.value > 0x20 }) else { return .string("") }
            let last = scalars.lastIndex(where: { $0.value > 0x20 })!
            return .string(String(scalars[first...last]))
        },
        Method("toUtf8", on: "string") { receiver, _, _, _ in
            guard case .string(let text) = receiver else { return .null }
            return .bytes(Array(text.utf8))
        },
        Method("matches", on: "string", [["string"]]) { receiver, arguments, _, call in
            guard case .string(let text) = receiver else { return .null }
            switch regex(arguments[0], span: call.span) {
            case .success(let regex): return .bool(regex.matchesFully(text))
            case .failure(let error): return error.value
            }
        },
        Method("split", on: "string", [["string"]]) { receiver, arguments, _, call in
            guard case .string(let text) = receiver else { return .null }
            switch regex(arguments[0], span: call.span) {
            case .success(let regex): return .list(regex.split(text).map(RValue.string))
            case .failure(let error): return error.value
            }
        },
        Method("replace", on: "string", [["string", "string"]]) { receiver, arguments, _, call in
            guard case .string(let text) = receiver, case .string(let replacement) = arguments[1] else { return .null }
            switch regex(arguments[0], span: call.span) {
            case .success(let regex):
                guard let result = regex.replaceAll(text, with: replacement, limit: Operators.maximumValueSize) else {
                    return Operators.tooLarge(span: call.span)
                }
                return .string(result)
            case .failure(let error): return error.value
            }
        },
    ]

    /// Google's `lower()` and `upper()` change ASCII letters only.
    static func asciiCase(_ text: String, upper: Bool) -> String {
        var bytes = Array(text.utf8)
        var changed = false
        for index in bytes.indices {
            let byte = bytes[index]
            if upper, byte >= 0x61, byte <= 0x7A {
                bytes[index] = byte - 32
                changed = true
            } else if !upper, byte >= 0x41, byte <= 0x5A {
                bytes[index] = byte + 32
                changed = true
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }
}
