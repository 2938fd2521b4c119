/// An evaluation error. Errors are values: they flow up through expressions until `&&`, `||`
/// or a ternary absorbs them, and an allow condition that ends in one denies.
final class RError: Sendable {
    enum Kind: Sendable {
        /// A failure of the expression: a missing field, a type error, a limit.
        case failure
        /// In the first phase of a request, a value that needs a document read (`resource`,
        /// `get()`...), which that phase does not do. Rendered `evaluation error at Lline:col`.
        case unknown
        /// A limit that ends the whole evaluation (too many expressions evaluated).
        case fatal
    }

    let kind: Kind
    let message: String
    /// Where the error arose.
    let span: SourceSpan

    init(_ message: String, kind: Kind = .failure, span: SourceSpan = .none) {
        self.kind = kind
        self.message = message
        self.span = span
    }

    static func value(_ message: String, span: SourceSpan = .none) -> RValue {
        .error(RError(message, span: span))
    }

    // MARK: Messages, in the words of Google's rules runtime

    static func undefinedProperty(_ name: String, span: SourceSpan) -> RValue {
        value("Property \(name) is undefined on object.", span: span)
    }

    static func nullValue(span: SourceSpan) -> RValue {
        value("Null value error.", span: span)
    }

    static func typeError(received: String, expected: String, span: SourceSpan) -> RValue {
        value("Type error. Received: [\(received)] Expected: [\(expected)].", span: span)
    }

    static func unsupported(_ received: String, expected: [String], span: SourceSpan) -> RValue {
        value(
            "Unsupported operation error. Received: \(received). Expected: \(expected.joined(separator: ", ")).",
            span: span)
    }

    static func functionNotFound(_ name: String, span: SourceSpan) -> RValue {
        value("Function not found error: Name: [\(name)].", span: span)
    }

    static func argumentCount(_ received: Int, expected: [String], span: SourceSpan) -> RValue {
        value(
            "Incorrect number of arguments. Received: \(received). Expected: \(expected.joined(separator: ", ")).",
            span: span)
    }

    static func integerOverflow(span: SourceSpan) -> RValue {
        value("Integer value is out of the [-9223372036854775808, 9223372036854775807] range.", span: span)
    }

    static func divideByZero(span: SourceSpan) -> RValue {
        value("Divide by zero error.", span: span)
    }

    static func indexOutOfBounds(_ index: Int64, size: Int, span: SourceSpan) -> RValue {
        value("Index out of bound error. Index: [\(index)] , size: [\(size)].", span: span)
    }

    static func illegalRange(_ from: Int64, _ to: Int64, span: SourceSpan) -> RValue {
        value("Illegal range error. From index: [\(from)] , To index: [\(to)].", span: span)
    }

    static func conversion(_ argument: String, from: String, to: String, span: SourceSpan) -> RValue {
        value(
            "Type conversion error. Argument: [\(argument)], From type: [\(from)], To type: [\(to)].", span: span)
    }

    static func invalidTimestamp(span: SourceSpan) -> RValue {
        value(
            "Timestamp is not valid. Seconds must be in range [-62,135,596,800, +253,402,300,799]. "
                + "Nanos must be in range [0, +999,999,999].", span: span)
    }

    static func invalidDuration(span: SourceSpan) -> RValue {
        value(
            "Duration is not valid. Seconds must be in range [-315,576,000,000, +315,576,000,000]. "
                + "Nanos must be in range [-999,999,999, +999,999,999]. Nanos must have the same sign as seconds.",
            span: span)
    }

    static let expressionLimit = RError(
        "Unable to evaluate the expression as the maximum of 1000 expressions to evaluate has been reached.",
        kind: .fatal)

    static let timeLimit = RError(
        "Unable to evaluate the expression as the maximum allowed execution time has been reached.", kind: .fatal)

    static let callDepthLimit = RError("Rule hierarchy is too complex to evaluate safely.", kind: .fatal)
}
