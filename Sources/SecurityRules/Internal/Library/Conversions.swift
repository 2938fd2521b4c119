import DocumentModel
import Foundation

/// The conversion functions `int()`, `float()`, `string()` and the string forms Google's
/// runtime gives numbers (Java's `Double.toString`: `1.0`, `0.1`, `1.0E21`).
enum Conversions {
    static let stringSignature = Signature(
        "string", [["int"], ["float"], ["null"], ["string"], ["bool"], ["path"]])

    static func double(_ value: RValue) -> Double {
        switch value {
        case .int(let number): Double(number)
        case .float(let number): number
        default: 0
        }
    }

    /// `string(value)`.
    static func toString(_ value: RValue, span: SourceSpan) -> RValue {
        switch value {
        case .string: value
        case .int(let number): .string(String(number))
        case .float(let number): .string(javaDouble(number))
        case .bool(let flag): .string(flag ? "true" : "false")
        case .null: .string("null")
        case .path(let path): .string(path.description)
        case .error: value
        default:
            RError.unsupported("string(\(value.typeName))", expected: stringSignature.rendered, span: span)
        }
    }

    /// Java's `Double.toString`.
    static func javaDouble(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        // Shortest round-trip digits and exponent, from Swift's description.
        var text = "\(value.magnitude)"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        var digits = text.replacingOccurrences(of: ".", with: "")
        let pointPosition = (text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? text.count)
        // Value = 0.digits * 10^(pointPosition + exponent) after stripping leading zeros.
        var decimalExponent = pointPosition + exponent
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            decimalExponent -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if decimalExponent <= 0 {
                return sign + "0." + String(repeating: "0", count: -decimalExponent) + digits
            }
            if digits.count <= decimalExponent {
                return sign + digits + String(repeating: "0", count: decimalExponent - digits.count) + ".0"
            }
            let index = digits.index(digits.startIndex, offsetBy: decimalExponent)
            return sign + digits[..<index] + "." + digits[index...]
        }
        let first = digits.prefix(1)
        let rest = digits.dropFirst()
        return sign + first + "." + (rest.isEmpty ? "0" : rest) + "E" + String(decimalExponent - 1)
    }

    static func toInt(_ value: RValue, span: SourceSpan) -> RValue {
        switch value {
        case .int: return value
        case .float(let number):
            guard number.isFinite, number > -0x1p63 - 1, number < 0x1p63 else {
                return number.isNaN ? .int(0) : .int(number < 0 ? Int64.min : Int64.max)
            }
            return .int(Int64(number))
        case .string(let text):
            guard let number = Int64(text) else {
                return RError.conversion(text, from: "string", to: "int", span: span)
            }
            return .int(number)
        default:
            return RError.unsupported(
                "int(\(value.typeName))", expected: ["int(int)", "int(float)", "int(string)"], span: span)
        }
    }

    static func toFloat(_ value: RValue, span: SourceSpan) -> RValue {
        switch value {
        case .float: return value
        case .int(let number): return .float(Double(number))
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            switch trimmed {
            case "NaN", "+NaN", "-NaN": return .float(.nan)
            case "Infinity", "+Infinity": return .float(.infinity)
            case "-Infinity": return .float(-.infinity)
            default: break
            }
            let allowed = trimmed.unicodeScalars.allSatisfy { "0123456789+-.eE".unicodeScalars.contains($0) }
            guard allowed, let number = Double(trimmed) else {
                return RError.conversion(text, from: "string", to: "float", span: span)
            }
            return .float(number)
        default:
            return RError.unsupported(
                "float(\(value.typeName))", expected: ["float(int)", "float(float)", "float(string)"], span: span)
        }
    }

    /// `path('a/b')`.
    static func toPath(_ text: String, span: SourceSpan) -> RValue {
        if text.isEmpty { return RError.value("Empty Path Template is not allowed.", span: span) }
        var body = Substring(text)
        if body.hasPrefix("/") { body = body.dropFirst() }
        let segments = body.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.contains(where: \.isEmpty) {
            return RError.value("Invalid Path Template \(text). Empty segment is not allowed.", span: span)
        }
        return .path(RPath(segments: segments))
    }
}
