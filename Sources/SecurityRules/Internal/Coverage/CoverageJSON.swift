import DocumentModel

/// Values and reports in the JSON form of Google's emulator's `:ruleCoverage` endpoint.
enum CoverageJSON {
    /// Values are written up to this many characters; longer ones end in `…`.
    static let valueBudget = 4096

    /// Writes a source position: `{"line","column","currentOffset","endOffset"}` (offsets from
    /// 0, the end inclusive).
    static func writePosition(_ span: SourceSpan, source: SourceText, to writer: inout JSONWriter) {
        let (line, column) = source.lineAndColumn(of: Int(span.start))
        writer.beginObject()
        writer.key("line")
        writer.number(line)
        writer.key("column")
        writer.number(column)
        writer.key("currentOffset")
        writer.number(span.start)
        writer.key("endOffset")
        writer.number(max(Int(span.start), Int(span.end) - 1))
        writer.endObject()
    }

    static func coverageValue(_ value: RValue, source: SourceText, errorSpans: [SourceSpan: SourceSpan]) -> CoverageValue {
        switch value {
        case .bool(true): return CoverageValue(json: CoverageJSON.trueValue, outcome: .true)
        case .bool(false): return CoverageValue(json: CoverageJSON.falseValue, outcome: .false)
        case .error(let error):
            // A document read in the first phase is reported without a cause.
            guard error.kind != .unknown else { return CoverageValue(json: CoverageJSON.undefinedValue, outcome: .error) }
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("undefined")
            writer.beginObject()
            writer.key("sourcePosition")
            writePosition(errorSpans[error.span] ?? error.span, source: source, to: &writer)
            writer.key("causeMessage")
            writer.string(error.message)
            writer.endObject()
            writer.endObject()
            return CoverageValue(json: writer.output, outcome: .error)
        default:
            var writer = JSONWriter()
            var budget = valueBudget
            write(value, to: &writer, budget: &budget)
            return CoverageValue(json: writer.output, outcome: .value)
        }
    }

    /// `{"boolValue":true}`.
    static let trueValue = JSONValue.object([JSONValue.Member("boolValue", .bool(true))]).serialized()
    /// `{"boolValue":false}`.
    static let falseValue = JSONValue.object([JSONValue.Member("boolValue", .bool(false))]).serialized()
    /// `{"undefined":{}}`.
    static let undefinedValue = JSONValue.object([JSONValue.Member("undefined", .object([]))]).serialized()

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

    /// Writes an `ExpressionValue`, counting what it writes (each value with what it contains)
    /// against `budget`; once the budget is spent, lists and maps end early, and values left
    /// are `{"truncated":true}`. `CoverageKey` walks values the same way to tell them apart
    /// without writing them: a change to what this writes changes it too.
    static func write(_ value: RValue, to writer: inout JSONWriter, budget: inout Int) {
        writer.beginObject()
        guard budget > 0 else {
            writer.key("truncated")
            writer.bool(true)
            writer.endObject()
            return
        }
        // What this value writes, from its opening brace.
        let start = writer.output.utf8.count - 1
        switch value {
        case .null:
            writer.key("nullValue")
            writer.string("NULL_VALUE")
        case .bool(let flag):
            writer.key("boolValue")
            writer.bool(flag)
        case .int(let number):
            writer.key("intValue")
            writer.string(String(number))
        case .float(let number):
            writer.key("floatValue")
            if number.isFinite { writer.number("\(number)") } else { writer.string(Conversions.javaDouble(number)) }
        case .string(let string):
            writer.key("stringValue")
            writer.string(String(string.prefix(budget)))
        case .bytes(let bytes):
            writer.key("bytesValue")
            writer.string(Library.base64URL(bytes))
        case .timestamp(let time):
            writer.key("timestampValue")
            writer.string("\(time)")
        case .duration(let duration):
            writer.key("durationValue")
            writer.string(protoJSON(duration))
        case .latlng(let point):
            writer.key("latlngValue")
            writer.beginObject()
            writer.key("latitude")
            writer.number("\(point.latitude)")
            writer.key("longitude")
            writer.number("\(point.longitude)")
            writer.endObject()
        case .path(let path):
            writer.key("pathValue")
            writer.beginObject()
            writer.key("segments")
            writer.beginArray()
            for segment in path.segments {
                writer.beginObject()
                writer.key("simple")
                writer.string(segment)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        case .list(let values):
            writer.key("listValue")
            writeValues(values, to: &writer, budget: &budget)
        case .set(let set):
            writer.key("setValue")
            writeValues(set.elements, to: &writer, budget: &budget)
        case .vector(let values):
            writer.key("vectorValue")
            writer.beginObject()
            writer.key("values")
            writer.beginArray()
            for value in values {
                writer.beginObject()
                writer.key("floatValue")
                writer.number("\(value)")
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        case .map(let map):
            writer.key("mapValue")
            writer.beginObject()
            // Google's report leaves out empty repeated fields, and a map whose first entry the
            // budget leaves out is empty.
            if !map.entries.isEmpty, budget > 0 {
                writer.key("fields")
                writer.beginObject()
                for entry in map.entries {
                    guard budget > 0 else { break }
                    writer.key(entry.key)
                    write(entry.value, to: &writer, budget: &budget)
                }
                writer.endObject()
            }
            writer.endObject()
        case .mapDiff(let diff):
            writer.key("mapDiffValue")
            writer.beginObject()
            writer.key("keyStatuses")
            writer.beginObject()
            for (keys, status) in [
                (diff.added, "ADDED"), (diff.removed, "REMOVED"), (diff.changed, "CHANGED"),
                (diff.unchanged, "UNCHANGED"),
            ] {
                for key in keys {
                    writer.key(key)
                    writer.string(status)
                }
            }
            writer.endObject()
            writer.endObject()
        case .constraint:
            writer.key("constraintValue")
            writer.beginObject()
            writer.endObject()
        case .error(let error):
            writer.key("undefined")
            writer.beginObject()
            writer.key("causeMessage")
            writer.string(error.message)
            writer.endObject()
        }
        writer.endObject()
        budget -= writer.output.utf8.count - start
    }

    /// Writes `{"values":[...]}` for a list or set, or `{}` for an empty one, as Google's report
    /// leaves out empty repeated fields; elements stop once the budget is spent.
    private static func writeValues(_ values: [RValue], to writer: inout JSONWriter, budget: inout Int) {
        writer.beginObject()
        if !values.isEmpty {
            writer.key("values")
            writer.beginArray()
            for value in values {
                guard budget > 0 else { break }
                write(value, to: &writer, budget: &budget)
            }
            writer.endArray()
        }
        writer.endObject()
    }
}
