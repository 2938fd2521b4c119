/// Type checking of built-in calls, with Google's messages:
/// `Incorrect number of arguments. Received: 1. Expected: string.split(string).` and
/// `Unsupported operation error. Received: string.split(int). Expected: string.split(string).`
struct Signature: Sendable {
    /// `string.split`, `math.abs`, `int`.
    let qualifiedName: String
    /// The parameter types of each overload; `any` matches every type, `number` int and float.
    let overloads: [[String]]

    /// The overloads' parameter types as type tags; -1 is `any`, -2 `number`.
    let tags: [[Int]]
    /// Whether the only overload takes no arguments (`size()`, `keys()`).
    let takesNothing: Bool

    init(_ qualifiedName: String, _ overloads: [[String]]) {
        self.qualifiedName = qualifiedName
        self.overloads = overloads
        self.tags = overloads.map { types in
            types.map { type in
                switch type {
                case "any": -1
                case "number": -2
                default: RValue.typeNames.firstIndex(of: type) ?? -3
                }
            }
        }
        takesNothing = overloads.count == 1 && overloads[0].isEmpty
    }

    @inline(__always)
    static func matches(tag: Int, _ value: RValue) -> Bool {
        switch tag {
        case -1: return true
        case -2:
            let actual = value.typeTag
            return actual == 2 || actual == 3
        default: return value.typeTag == tag
        }
    }

    var rendered: [String] {
        overloads.map { "\(qualifiedName)(\($0.joined(separator: ", ")))" }
    }

    /// The index of the overload the arguments fit, or the error to return.
    func check(_ arguments: Arguments, span: SourceSpan) -> Result<Int, RErrorValue> {
        if takesNothing && arguments.isEmpty { return .success(0) }
        if tags.count == 1, tags[0].count == arguments.count {
            var fits = true
            for index in arguments.indices where !Signature.matches(tag: tags[0][index], arguments[index]) {
                fits = false
                break
            }
            if fits { return .success(0) }
        }
        guard overloads.contains(where: { $0.count == arguments.count }) else {
            return .failure(RErrorValue(RError.argumentCount(arguments.count, expected: rendered, span: span)))
        }
        for (index, overload) in tags.enumerated() where overload.count == arguments.count {
            if zip(overload, arguments).allSatisfy({ Signature.matches(tag: $0, $1) }) { return .success(index) }
        }
        let received = "\(qualifiedName)(\(arguments.map(\.typeName).joined(separator: ", ")))"
        return .failure(RErrorValue(RError.unsupported(received, expected: rendered, span: span)))
    }
}

/// An error value, so it can be a `Result` failure.
struct RErrorValue: Error {
    let value: RValue

    init(_ value: RValue) {
        self.value = value
    }
}

/// A method of one receiver type: its signature and its body. A class, so a call fetches
/// one reference rather than copying the signature's arrays.
final class MethodVariant: Sendable {
    let signature: Signature
    let body: @Sendable (_ receiver: RValue, _ arguments: Arguments, _ overload: Int, _ call: CallSite) -> RValue

    init(
        signature: Signature,
        body: @escaping @Sendable (_ receiver: RValue, _ arguments: Arguments, _ overload: Int, _ call: CallSite) -> RValue
    ) {
        self.signature = signature
        self.body = body
    }
}

/// The variants of one method name by receiver type tag.
final class MethodTable: Sendable {
    let name: String
    let byTag: [MethodVariant?]
    /// The variants, held by `byTag`: a call through these takes no reference counts.
    private let unretainedByTag: [Unretained<MethodVariant>?]

    init(name: String, variants: [String: MethodVariant]) {
        self.name = name
        var table = [MethodVariant?](repeating: nil, count: RValue.typeNames.count)
        for (type, variant) in variants {
            if let tag = RValue.typeNames.firstIndex(of: type) { table[tag] = variant }
        }
        byTag = table
        unretainedByTag = table.map { $0.map { Unretained($0) } }
    }

    /// Runs the variant for the receiver's type after checking the arguments; a receiver type
    /// without the method is `Function not found`.
    @inline(__always)
    func call(_ receiver: RValue, _ arguments: Arguments, _ call: CallSite) -> RValue {
        guard let variant = unretainedByTag[receiver.typeTag] else {
            switch receiver {
            case .constraint(let constraint): return constraint.method(name, arguments, span: call.span)
            case .null: return RError.nullValue(span: call.span)
            default: return RError.functionNotFound(name, span: call.span)
            }
        }
        return variant.with { variant in
            switch variant.signature.check(arguments, span: call.span) {
            case .success(let overload): return variant.body(receiver, arguments, overload, call)
            case .failure(let error): return error.value
            }
        }
    }
}

extension Library {
    /// An implementation of a global function with one signature.
    static func global(
        _ signature: Signature,
        _ body: @escaping @Sendable (_ arguments: Arguments, _ overload: Int, _ call: CallSite) -> RValue
    ) -> BuiltinImplementation {
        return { _, arguments, call in
            switch signature.check(arguments, span: call.span) {
            case .success(let overload): return body(arguments, overload, call)
            case .failure(let error): return error.value
            }
        }
    }
}
