extension Lexer {
    /// The escapes of a string or bytes literal, as Google's lexer accepts them: `\b \t \n \f \r
    /// \" \' \\`, three-digit octal `\101`, `\xHH` and `\uHHHH` (surrogate pairs combine).
    enum Escape {
        case scalar(UInt32)
        case byte(UInt8)
        case utf16(UInt16)
        /// Not a valid escape; `length` characters after the backslash are reported.
        case invalid(length: Int)
    }

    /// Reads the escape after the backslash at `index`; returns it and its length including the backslash.
    static func escape(in scalars: [Unicode.Scalar], at index: Int) -> (Escape, Int) {
        func at(_ offset: Int) -> Unicode.Scalar? { offset < scalars.count ? scalars[offset] : nil }
        guard let kind = at(index + 1) else { return (.invalid(length: 0), 1) }
        switch kind {
        case "b": return (.scalar(0x08), 2)
        case "t": return (.scalar(0x09), 2)
        case "n": return (.scalar(0x0A), 2)
        case "f": return (.scalar(0x0C), 2)
        case "r": return (.scalar(0x0D), 2)
        case "\"", "'", "\\": return (.scalar(kind.value), 2)
        case "x":
            if let high = at(index + 2), let low = at(index + 3), high.properties.isASCIIHexDigit,
                low.properties.isASCIIHexDigit, let value = UInt8("\(high)\(low)", radix: 16)
            {
                return (.byte(value), 4)
            }
        case "u":
            let digits = (2...5).compactMap { at(index + $0) }
            if digits.count == 4, digits.allSatisfy(\.properties.isASCIIHexDigit),
                let value = UInt16(String(String.UnicodeScalarView(digits)), radix: 16)
            {
                return (.utf16(value), 6)
            }
        case "0"..."3":
            if let second = at(index + 2), let third = at(index + 3), ("0"..."7").contains(second),
                ("0"..."7").contains(third)
            {
                let value = (kind.value - 48) * 64 + (second.value - 48) * 8 + (third.value - 48)
                return (.byte(UInt8(value)), 4)
            }
        default:
            break
        }
        var length = 1
        while let next = at(index + 1 + length), isIdentifierPart(next) { length += 1 }
        if !isIdentifierPart(kind) { length = 1 }
        return (.invalid(length: length), 1)
    }

    mutating func lexString() -> Token {
                let start = position
        let quote = scalars[start]
        var index = start + 1
        var value = String.UnicodeScalarView()
        var pendingHigh: UInt16?
        var bytes: [UInt8] = []
        var valid = true
        func flushBytes() {
            guard !bytes.isEmpty else { return }
            value.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
            bytes.removeAll()
        }
        func flushSurrogate() {
            if pendingHigh != nil { value.append("\u{FFFD}") }
            pendingHigh = nil
        }
        while index < scalars.count, scalars[index] != quote, scalars[index] != "\n" {
            let scalar = scalars[index]
            guard scalar == "\\" else {
                flushBytes()
                flushSurrogate()
                value.append(scalar)
                index += 1
                continue
            }
            let (escape, length) = Lexer.escape(in: scalars, at: index)
            switch escape {
            case .scalar(let code):
                flushBytes()
                flushSurrogate()
                value.append(Unicode.Scalar(code)!)
            case .byte(let byte):
                // `\xHH` and octal escapes are characters (code points) in a string.
                flushBytes()
                flushSurrogate()
                value.append(Unicode.Scalar(byte))
            case .utf16(let unit):
                flushBytes()
                if let high = pendingHigh, UTF16.isTrailSurrogate(unit) {
                    let code = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00)
                    value.append(Unicode.Scalar(code)!)
                    pendingHigh = nil
                } else {
                    flushSurrogate()
                    if UTF16.isLeadSurrogate(unit) {
                        pendingHigh = unit
                    } else if let scalar = Unicode.Scalar(UInt32(unit)) {
                        value.append(scalar)
                    } else {
                        value.append("\u{FFFD}")
                    }
                }
            case .invalid(let reported):
                valid = false
                let span = SourceSpan(index + 1, index + 1 + max(reported, 1))
                diagnostics.syntaxError("Unexpected '\(source.slice(span))'.", at: span)
            }
            index += length
        }
        flushBytes()
        flushSurrogate()
        guard index < scalars.count, scalars[index] == quote else {
            let span = SourceSpan(start, start + 1)
            diagnostics.syntaxError("Missing a closing \(quote)", at: span)
            position = index
            return Token(kind: .invalid, span: SourceSpan(start, index))
        }
        position = index + 1
        let span = SourceSpan(start, index + 1)
        return Token(kind: valid ? .string : .invalid, span: span, payload: .string(String(value)))
    }

    mutating func lexBytes() -> Token {
                let start = position
        let quote = scalars[start + 1]
        var index = start + 2
        var bytes: [UInt8] = []
        var valid = true
        while index < scalars.count, scalars[index] != quote, scalars[index] != "\n" {
            let scalar = scalars[index]
            guard scalar == "\\" else {
                bytes.append(contentsOf: String(scalar).utf8)
                index += 1
                continue
            }
            let (escape, length) = Lexer.escape(in: scalars, at: index)
            switch escape {
            case .scalar(let code): bytes.append(UInt8(truncatingIfNeeded: code))
            case .byte(let byte): bytes.append(byte)
            case .utf16, .invalid: valid = false
            }
            index += max(length, 2)
        }
        guard index < scalars.count, scalars[index] == quote else {
            diagnostics.syntaxError("Missing a closing \(quote)", at: SourceSpan(start + 1, start + 2))
            position = index
            return Token(kind: .invalid, span: SourceSpan(start, index))
        }
        position = index + 1
        let span = SourceSpan(start, index + 1)
        guard valid else {
            diagnostics.error("Invalid bytes literal \(source.slice(span)).", at: span)
            return Token(kind: .bytes, span: span, payload: .bytes([]))
        }
        return Token(kind: .bytes, span: span, payload: .bytes(bytes))
    }
}
