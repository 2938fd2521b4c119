/// The standard library: methods by name (bound at compile time, dispatched on the receiver's
/// type at run time) and global functions by qualified name.
enum Library {
    /// One method of one receiver type.
    struct Method: Sendable {
        let name: String
        let receiver: String
        let parameters: [[String]]
        let body: @Sendable (_ receiver: RValue, _ arguments: Arguments, _ overload: Int, _ call: CallSite) -> RValue

        init(
            _ name: String, on receiver: String, _ parameters: [[String]] = [[]],
            _ body: @escaping @Sendable (_ receiver: RValue, _ arguments: Arguments, _ overload: Int, _ call: CallSite) ->
                RValue
        ) {
            self.name = name
            self.receiver = receiver
            self.parameters = parameters
            self.body = body
        }
    }

    /// A global function.
    struct Global: Sendable {
        let implementation: BuiltinImplementation
        /// The argument counts it accepts, for the load-time check.
        let arities: Set<Int>
        /// Whether it reads documents (so the first phase cannot evaluate it).
        let readsDocuments: Bool
    }

    static let allMethods: [Method] =
        stringMethods + listMethods + mapMethods + setMethods + timeMethods + miscellaneousMethods

    /// Method tables by method name.
    static let methods: [String: MethodTable] = {
        var byName: [String: [String: MethodVariant]] = [:]
        for method in allMethods {
            let qualified = "\(method.receiver).\(method.name)"
            byName[method.name, default: [:]][method.receiver] = MethodVariant(
                signature: Signature(qualified, method.parameters), body: method.body)
        }
        return Dictionary(uniqueKeysWithValues: byName.map { ($0.key, MethodTable(name: $0.key, variants: $0.value)) })
    }()

    /// The argument counts each method name accepts (on any receiver), for the load-time check.
    static let methodArities: [String: Set<Int>] = {
        var arities: [String: Set<Int>] = [:]
        for method in allMethods {
            for parameters in method.parameters { arities[method.name, default: []].insert(parameters.count) }
        }
        // A list query's constraint answers `hasAny`.
        return arities
    }()

    static let globals: [String: Global] = {
        var table = conversionGlobals
        table.merge(mathGlobals) { $1 }
        table.merge(timeGlobals) { $1 }
        table.merge(hashingGlobals) { $1 }
        table.merge(documentGlobals) { $1 }
        return table
    }()

    /// Namespaces of global functions (`math.abs`): a member call on one of these names is a
    /// global function call, not a method call.
    static let namespaces: Set<String> = ["math", "timestamp", "duration", "latlng", "hashing"]

    static func global(_ name: String, _ signature: Signature, reads: Bool = false,
        _ body: @escaping @Sendable (_ arguments: Arguments, _ overload: Int, _ call: CallSite) -> RValue
    ) -> (String, Global) {
        (name, Global(
            implementation: global(signature, body), arities: Set(signature.overloads.map(\.count)),
            readsDocuments: reads))
    }
}
