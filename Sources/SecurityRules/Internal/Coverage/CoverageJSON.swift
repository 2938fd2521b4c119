import DocumentModel

/// Values and reports in the JSON form of Google's emulator's `:ruleCoverage` endpoint.
enum CoverageJSON {
    /// Values are written up to this many characters; longer ones end in `…`.
    static let valueBudget = 4096

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func position(_ span: SourceSpan, source: SourceText) -> String {
        let (line, column) = source.lineAndColumn(of: Int(span.start))
        let end = max(Int(span.start), Int(span.end) - 1)
        return "{\"line\":\(line),\"column\":\(column),\"currentOffset\":\(span.start),\"endOffset\":\(end)}"
    }

    static func coverageValue(_ value: RValue, source: SourceText, errorSpans: [SourceSpan: SourceSpan]) -> CoverageValue {
        switch value {
        case .bool(true): return CoverageValue(json: "{\"boolValue\":true}", outcome: .true)
        case .bool(false): return CoverageValue(json: "{\"boolValue\":false}", outcome: .false)
        case .error(let error):
            // A document read in the first phase is reported without a cause.
            guard error.kind != .unknown else { return CoverageValue(json: "{\"undefined\":{}}", outcome: .error) }
            let span = errorSpans[error.span] ?? error.span
            let json =
                "{\"undefined\":{\"sourcePosition\":\(position(span, source: source)),\"causeMessage\":\(quoted(error.message))}}"
            return CoverageValue(json: json, outcome: .error)
        default:
            var budget = valueBudget
            return CoverageValue(json: json(value, budget: &budget), outcome: .value)
        }
    }

    /// A duration in protobuf's JSON form: `1s`, `-1.500s`, `0.000000001s`.
    static func protoJSON(_ duration: RDuration) -> String {
        let negative = duration.seconds < 0 || duration.nanos < 0
        let seconds = duration.seconds.magnitude
        var nanos = Int(duration.nanos.magnitude)
        guard nanos != 0 else { return (negative ? "-" : "") + "\(seconds)s" }
        var digits = 9
        while digits > 3, nanos % 1000 == 0 {
            nanos /= 1000
            digits -= 3
        }
        let fraction = String(nanos)
        return (negative ? "-" : "") + "\(seconds)." + String(repeating: "0", count: digits - fraction.count) + fraction + "s"
    }

    /// The JSON of an `ExpressionValue`.
    static func json(_ value: RValue, budget: inout Int) -> String {
        guard budget > 0 else { return "{\"truncated\":true}" }
        let text: String
        switch value {
        case .null: text = "{\"nullValue\":\"NULL_VALUE\"}"
        case .bool(let flag): text = "{\"boolValue\":\(flag)}"
        case .int(let number): text = "{\"intValue\":\"\(number)\"}"
        case .float(let number):
            text = number.isFinite ? "{\"floatValue\":\(number)}" : "{\"floatValue\":\"\(Conversions.javaDouble(number))\"}"
        case .string(let string): text = "{\"stringValue\":\(quoted(String(string.prefix(budget))))}"
        case .bytes(let bytes): text = "{\"bytesValue\":\(quoted(Library.base64URL(bytes)))}"
        case .timestamp(let time): text = "{\"timestampValue\":\"\(time)\"}"
        case .duration(let duration):
            text = "{\"durationValue\":\"\(protoJSON(duration))\"}"
        case .latlng(let point):
            text = "{\"latlngValue\":{\"latitude\":\(point.latitude),\"longitude\":\(point.longitude)}}"
        case .path(let path):
            text =
                "{\"pathValue\":{\"segments\":["
                + path.segments.map { "{\"simple\":\(quoted($0))}" }.joined(separator: ",") + "]}}"
        case .list(let values):
            // Google's report leaves out empty repeated fields.
            text =
                values.isEmpty
                ? "{\"listValue\":{}}" : "{\"listValue\":{\"values\":[" + elements(values, budget: &budget) + "]}}"
        case .set(let set):
            text =
                set.elements.isEmpty
                ? "{\"setValue\":{}}" : "{\"setValue\":{\"values\":[" + elements(set.elements, budget: &budget) + "]}}"
        case .vector(let values):
            text = "{\"vectorValue\":{\"values\":[" + values.map { "{\"floatValue\":\($0)}" }.joined(separator: ",") + "]}}"
        case .map(let map):
            var fields: [String] = []
            for entry in map.entries {
                guard budget > 0 else { break }
                fields.append("\(quoted(entry.key)):\(json(entry.value, budget: &budget))")
            }
            text = fields.isEmpty ? "{\"mapValue\":{}}" : "{\"mapValue\":{\"fields\":{" + fields.joined(separator: ",") + "}}}"
        case .mapDiff(let diff):
            var statuses: [(String, String)] = []
            statuses += diff.added.map { ($0, "ADDED") }
            statuses += diff.removed.map { ($0, "REMOVED") }
            statuses += diff.changed.map { ($0, "CHANGED") }
            statuses += diff.unchanged.map { ($0, "UNCHANGED") }
            text =
                "{\"mapDiffValue\":{\"keyStatuses\":{"
                + statuses.map { "\(quoted($0.0)):\"\($0.1)\"" }.joined(separator: ",") + "}}}"
        case .constraint: text = "{\"constraintValue\":{}}"
        case .error(let error): text = "{\"undefined\":{\"causeMessage\":\(quoted(error.message))}}"
        }
        budget -= text.utf8.count
        return text
    }

    private static func elements(_ values: [RValue], budget: inout Int) -> String {
        var parts: [String] = []
        for value in values {
            guard budget > 0 else { break }
            parts.append(json(value, budget: &budget))
        }
        return parts.joined(separator: ",")
    }
}
