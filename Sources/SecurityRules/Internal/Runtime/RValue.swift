import DocumentModel

/// A value of the rules language at evaluation time: Firestore's value types plus the
/// language's own (duration, path, set, map diff, the constraint a list query puts on a field)
/// and errors, which flow through expressions as values.
enum RValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Double)
    case string(String)
    case bytes([UInt8])
    case timestamp(Timestamp)
    case duration(RDuration)
    case latlng(RLatLng)
    case path(RPath)
    case list([RValue])
    case map(RMap)
    case set(RSet)
    case mapDiff(RMapDiff)
    case vector([Double])
    /// What a list query's filters say about a field of the documents it may return.
    case constraint(FieldConstraint)
    case error(RError)

    /// The type's name as the rules language spells it in messages (`int`, `map_diff`, ...).
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .string: "string"
        case .bytes: "bytes"
        case .timestamp: "timestamp"
        case .duration: "duration"
        case .latlng: "latlng"
        case .path: "path"
        case .list: "list"
        case .map: "map"
        case .set: "set"
        case .mapDiff: "map_diff"
        case .vector: "vector"
        case .constraint: "constraint"
        case .error: "error"
        }
    }

    /// Whether this is an error that ends the evaluation (a limit). Operands are evaluated
    /// even after an error, as Google's runtime does (coverage and limits count them), but
    /// not after a fatal one.
    @inline(__always)
    var isFatalError: Bool {
        if case .error(let error) = self { return error.kind == .fatal }
        return false
    }

    var isConstraint: Bool {
        if case .constraint = self { return true }
        return false
    }

    /// A small number per type, for table dispatch; `typeNames[typeTag] == typeName`.
    @inline(__always)
    var typeTag: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .int: 2
        case .float: 3
        case .string: 4
        case .bytes: 5
        case .timestamp: 6
        case .duration: 7
        case .latlng: 8
        case .path: 9
        case .list: 10
        case .map: 11
        case .set: 12
        case .mapDiff: 13
        case .vector: 14
        case .constraint: 15
        case .error: 16
        }
    }

    static let typeNames = [
        "null", "bool", "int", "float", "string", "bytes", "timestamp", "duration", "latlng", "path", "list", "map",
        "set", "map_diff", "vector", "constraint", "error",
    ]

    var isError: Bool {
        if case .error = self { return true }
        return false
    }

    static let `true` = RValue.bool(true)
    static let `false` = RValue.bool(false)
}

/// A span of time with nanosecond resolution; seconds and nanoseconds have the same sign.
struct RDuration: Sendable, Hashable, Comparable {
    var seconds: Int64
    var nanos: Int32

    /// The largest magnitude Firestore accepts, 10,000 years.
    static let maxSeconds: Int64 = 315_576_000_000

    /// A normalized duration, or `nil` out of range.
    static func make(seconds: Int64, nanos: Int64) -> RDuration? {
        var (extra, rest) = nanos.quotientAndRemainder(dividingBy: 1_000_000_000)
        var total = seconds.addingReportingOverflow(extra)
        guard !total.overflow else { return nil }
        if total.partialValue > 0 && rest < 0 {
            total.partialValue -= 1
            rest += 1_000_000_000
        } else if total.partialValue < 0 && rest > 0 {
            total.partialValue += 1
            rest -= 1_000_000_000
        }
        extra = total.partialValue
        guard abs(extra) <= maxSeconds else { return nil }
        return RDuration(seconds: extra, nanos: Int32(rest))
    }

    /// Total nanoseconds, if they fit.
    var totalNanos: Int64? {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (sum, overflow2) = product.addingReportingOverflow(Int64(nanos))
        return overflow2 ? nil : sum
    }

    static func < (lhs: RDuration, rhs: RDuration) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }
}

/// A geographic point, as the rules language builds and compares it.
struct RLatLng: Sendable, Hashable {
    var latitude: Double
    var longitude: Double
}

/// A path value: segments without the leading slash.
struct RPath: Sendable, Hashable {
    var segments: [String]

    /// `/a/b`; the empty path is `/`.
    var description: String { "/" + segments.joined(separator: "/") }

    static func == (lhs: RPath, rhs: RPath) -> Bool {
        lhs.segments.count == rhs.segments.count && zip(lhs.segments, rhs.segments).allSatisfy { utf8Equal($0, $1) }
    }

    func hash(into hasher: inout Hasher) {
        for segment in segments { hasher.combineUTF8(segment) }
    }
}
