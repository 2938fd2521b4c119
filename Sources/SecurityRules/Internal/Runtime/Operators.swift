import DocumentModel

/// The arithmetic, comparison and membership operators, with Google's type rules and messages.
enum Operators {
    static let addSignatures = [
        "int + int", "float + float", "string + string", "duration + duration", "duration + timestamp",
        "timestamp + duration",
    ]
    static let subtractSignatures = [
        "int - int", "float - float", "duration - duration", "timestamp - duration", "timestamp - timestamp",
    ]

    static func comparisonSignatures(_ symbol: String) -> [String] {
        ["string", "bytes", "int", "float", "duration", "timestamp"].map { "\($0) \(symbol) \($0)" }
            + ["constraint \(symbol) any", "any \(symbol) constraint"]
    }

    /// The size limit of strings, bytes and lists built during evaluation.
    static let maximumValueSize = 5 * 1024 * 1024

    static func tooLarge(span: SourceSpan) -> RValue {
        RError.value(
            "Unable to evaluate the expression as the maximum allotted memory for variables (\(maximumValueSize)) has been reached.",
            span: span)
    }

    // MARK: Arithmetic

    static func add(_ lhs: RValue, _ rhs: RValue, span: SourceSpan) -> RValue {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? RError.integerOverflow(span: span) : .int(sum)
        case (.float(let a), .float(let b)): return .float(a + b)
        case (.int(let a), .float(let b)): return .float(Double(a) + b)
        case (.float(let a), .int(let b)): return .float(a + Double(b))
        case (.string(let a), .string(let b)):
            guard a.utf8.count + b.utf8.count <= maximumValueSize else { return tooLarge(span: span) }
            return .string(a + b)
        case (.duration(let a), .duration(let b)):
            return RDuration.make(seconds: a.seconds &+ b.seconds, nanos: Int64(a.nanos) + Int64(b.nanos))
                .map(RValue.duration) ?? RError.invalidDuration(span: span)
        case (.duration(let d), .timestamp(let t)), (.timestamp(let t), .duration(let d)):
            return timestamp(seconds: t.seconds, nanos: Int64(t.nanoseconds), plus: d, span: span)
        default:
            return RError.unsupported("\(lhs.typeName) + \(rhs.typeName)", expected: addSignatures, span: span)
        }
    }

    static func subtract(_ lhs: RValue, _ rhs: RValue, span: SourceSpan) -> RValue {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            return overflow ? RError.integerOverflow(span: span) : .int(difference)
        case (.float(let a), .float(let b)): return .float(a - b)
        case (.int(let a), .float(let b)): return .float(Double(a) - b)
        case (.float(let a), .int(let b)): return .float(a - Double(b))
        case (.duration(let a), .duration(let b)):
            return RDuration.make(seconds: a.seconds &- b.seconds, nanos: Int64(a.nanos) - Int64(b.nanos))
                .map(RValue.duration) ?? RError.invalidDuration(span: span)
        case (.timestamp(let t), .duration(let d)):
            return timestamp(
                seconds: t.seconds, nanos: Int64(t.nanoseconds),
                plus: RDuration(seconds: -d.seconds, nanos: -d.nanos), span: span)
        case (.timestamp(let a), .timestamp(let b)):
            return RDuration.make(
                seconds: a.seconds - b.seconds, nanos: Int64(a.nanoseconds) - Int64(b.nanoseconds)
            ).map(RValue.duration) ?? RError.invalidDuration(span: span)
        default:
            return RError.unsupported(
                "\(lhs.typeName) - \(rhs.typeName)", expected: subtractSignatures, span: span)
        }
    }

    static func timestamp(seconds: Int64, nanos: Int64, plus duration: RDuration, span: SourceSpan) -> RValue {
        var totalSeconds = seconds &+ duration.seconds
        var totalNanos = nanos + Int64(duration.nanos)
        if totalNanos >= 1_000_000_000 {
            totalNanos -= 1_000_000_000
            totalSeconds += 1
        } else if totalNanos < 0 {
            totalNanos += 1_000_000_000
            totalSeconds -= 1
        }
        guard let result = try? Timestamp(seconds: totalSeconds, nanoseconds: Int32(totalNanos)) else {
            return RError.invalidTimestamp(span: span)
        }
        return .timestamp(result)
    }

    static func multiply(_ lhs: RValue, _ rhs: RValue, span: SourceSpan) -> RValue {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? RError.integerOverflow(span: span) : .int(product)
        case (.float(let a), .float(let b)): return .float(a * b)
        case (.int(let a), .float(let b)): return .float(Double(a) * b)
        case (.float(let a), .int(let b)): return .float(a * Double(b))
        default:
            return RError.unsupported(
                "\(lhs.typeName) * \(rhs.typeName)", expected: ["int * int", "float * float"], span: span)
        }
    }

    static func divide(_ lhs: RValue, _ rhs: RValue, span: SourceSpan) -> RValue {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            guard b != 0 else { return RError.divideByZero(span: span) }
            return .int(a.dividedReportingOverflow(by: b).partialValue)
        case (.float(let a), .float(let b)): return .float(a / b)
        case (.int(let a), .float(let b)): return .float(Double(a) / b)
        case (.float(let a), .int(let b)): return .float(a / Double(b))
        default:
            return RError.unsupported(
                "\(lhs.typeName) / \(rhs.typeName)", expected: ["int / int", "float / float"], span: span)
        }
    }

    static func modulo(_ lhs: RValue, _ rhs: RValue, span: SourceSpan) -> RValue {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            guard b != 0 else { return RError.divideByZero(span: span) }
            return .int(a.remainderReportingOverflow(dividingBy: b).partialValue)
        case (.float(let a), .float(let b)): return .float(a.truncatingRemainder(dividingBy: b))
        case (.int(let a), .float(let b)): return .float(Double(a).truncatingRemainder(dividingBy: b))
        case (.float(let a), .int(let b)): return .float(a.truncatingRemainder(dividingBy: Double(b)))
        default:
            return RError.unsupported(
                "\(lhs.typeName) % \(rhs.typeName)", expected: ["int % int", "float % float"], span: span)
        }
    }

    static func negate(_ operand: RValue, span: SourceSpan) -> RValue {
        switch operand {
        case .int(let a):
            let (result, overflow) = Int64(0).subtractingReportingOverflow(a)
            return overflow ? RError.integerOverflow(span: span) : .int(result)
        case .float(let a): return .float(-a)
        case .duration(let d): return .duration(RDuration(seconds: -d.seconds, nanos: -d.nanos))
        default:
            return RError.unsupported(
                "-\(operand.typeName)", expected: ["-int", "-float", "-duration"], span: span)
        }
    }

    static func not(_ operand: RValue, span: SourceSpan) -> RValue {
        if case .bool(let value) = operand { return .bool(!value) }
        return RError.unsupported("!\(operand.typeName)", expected: ["!bool"], span: span)
    }

    // MARK: Comparison

    /// `<`, `<=`, `>`, `>=` between two concrete values: `nil` if the types do not compare.
    static func order(_ lhs: RValue, _ rhs: RValue) -> Int? {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.float(let a), .float(let b)): return doubleOrder(a, b)
        case (.int(let a), .float(let b)): return doubleOrder(Double(a), b)
        case (.float(let a), .int(let b)): return doubleOrder(a, Double(b))
        case (.string(let a), .string(let b)): return compareUTF16(a, b)
        case (.bytes(let a), .bytes(let b)):
            return a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
        case (.duration(let a), .duration(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.timestamp(let a), .timestamp(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        default: return nil
        }
    }

    /// An order in which NaN compares as unordered (every comparison false).
    private static func doubleOrder(_ a: Double, _ b: Double) -> Int {
        if a < b { return -1 }
        if a > b { return 1 }
        if a == b { return 0 }
        return 2
    }
}

/// Compares strings by UTF-16 code units, as Java (and so Google's runtime) orders them.
func compareUTF16(_ lhs: String, _ rhs: String) -> Int {
    var left = lhs
    var right = rhs
    let asciiOrder: Int? = left.withUTF8 { a in
        right.withUTF8 { b in
            let common = min(a.count, b.count)
            for index in 0..<common where a[index] != b[index] {
                // Below 0x80 UTF-8 and UTF-16 order agree; past it, they may not.
                if a[index] >= 0x80 || b[index] >= 0x80 { return nil }
                return a[index] < b[index] ? -1 : 1
            }
            return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
        }
    }
    if let asciiOrder { return asciiOrder }
    var l = lhs.utf16.makeIterator()
    var r = rhs.utf16.makeIterator()
    while true {
        switch (l.next(), r.next()) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
        }
    }
}
