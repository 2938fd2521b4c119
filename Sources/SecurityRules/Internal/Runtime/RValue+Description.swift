/// A short, readable form of a value, for `debug()`, tests and messages.
extension RValue: CustomStringConvertible {
    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .int(let value): return "\(value)"
        case .float(let value): return Conversions.javaDouble(value)
        case .string(let value): return "'\(value)'"
        case .bytes(let value): return "b'\(Library.base64URL(value))'"
        case .timestamp(let value): return "timestamp(\(value))"
        case .duration(let value): return "duration(\(value.seconds)s \(value.nanos)ns)"
        case .latlng(let value): return "latlng(\(value.latitude), \(value.longitude))"
        case .path(let value): return "path(\(value.description))"
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let map):
            return "{" + map.entries.map { "'\($0.key)': \($0.value)" }.joined(separator: ", ") + "}"
        case .set(let set): return "set(" + set.elements.map(\.description).joined(separator: ", ") + ")"
        case .mapDiff(let diff):
            return "diff(added: \(diff.added), removed: \(diff.removed), changed: \(diff.changed), unchanged: \(diff.unchanged))"
        case .vector(let values): return "vector(\(values))"
        case .constraint: return "constraint"
        case .error(let error):
            return error.kind == .unknown ? "error(unknown)" : "error(\(error.message))"
        }
    }
}
