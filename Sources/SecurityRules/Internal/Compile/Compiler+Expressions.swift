extension Compiler {
    /// Compiles an expression; `currentCoverageParent` is the coverage entry it reports under.
    func compileExpression(_ id: ExprID, _ scope: Scope) -> Node {
        let node = tree[id]
        let span = node.span
        let parenStart = pendingParenStart
        pendingParenStart = nil
        // Literals are not reported in coverage, as in Google's report.
        switch node.kind {
        case .null: return ConstantNode(.null, span: span)
        case .bool(let value): return ConstantNode(.bool(value), span: span)
        case .int(let value): return ConstantNode(.int(value), span: span)
        case .float(let value): return ConstantNode(.float(value), span: span)
        case .string(let value): return ConstantNode(.string(value), span: span)
        case .bytes(let value): return ConstantNode(.bytes(value), span: span)
        case .paren(let inner):
            pendingParenStart = parenStart ?? span.start
            return compileExpression(inner, scope)
        case .invalid: return UndefinedNode(span: span)
        default: break
        }
        let parent = currentCoverageParent
        let coverageID = coverage.add(
            span: SourceSpan(Int(parenStart ?? span.start), Int(coverageEnd(id))), parent: parent)
        if recordsCoverage, coverage.errorSpans[span] == nil { coverage.errorSpans[span] = errorToken(id) }
        currentCoverageParent = coverageID
        defer { currentCoverageParent = parent }
        let child = { (child: ExprID) in self.compileExpression(child, scope) }

        switch node.kind {
        case .identifier(let name):
            return compileIdentifier(name, span: span, scope: scope, coverageID: coverageID)
        case .path(let parts):
            let compiled = parts.map { part -> PathNode.Part in
                switch part {
                case .literal(let text, _): .literal(text)
                case .interpolation(let inner): .interpolation(child(inner))
                }
            }
            return PathNode(parts: compiled, span: span, coverageID: coverageID)
        case .list(let elements):
            let nodes = elements.map(child)
            if !recordsCoverage, let values = constants(nodes) {
                return ConstantNode(.list(values), span: span, cost: 1 + Int32(nodes.count))
            }
            return ListNode(elements: nodes, span: span, coverageID: coverageID)
        case .map(let entries):
            let nodes = entries.map { (key: child($0.key), value: child($0.value)) }
            if !recordsCoverage, let keys = constants(nodes.map(\.key)), let values = constants(nodes.map(\.value)),
                keys.allSatisfy({ if case .string = $0 { true } else { false } })
            {
                let built = zip(keys, values).map { key, value -> RMap.Entry in
                    guard case .string(let name) = key else { fatalError() }
                    return RMap.Entry(key: name, value: value)
                }
                return ConstantNode(.map(RMap(entries: built)), span: span, cost: 1 + 2 * Int32(nodes.count))
            }
            return MapNode(entries: nodes, span: span, coverageID: coverageID)
        case .member(let base, let name, _):
            if !recordsCoverage, let fast = resolvedChain(id, scope) { return fast }
            if !recordsCoverage, case .identifier(let variable) = tree[base].kind,
                case .slot(let index, let owner) = scope.lookupName(variable)
            {
                owner.usedSlots.insert(index)
                return SlotMemberNode(index: index, name: name, span: span)
            }
            return MemberNode(base: child(base), name: name, span: span, coverageID: coverageID)
        case .index(let base, let index):
            return IndexNode(base: child(base), index: child(index), span: span, coverageID: coverageID)
        case .range(let base, let from, let to):
            return RangeNode(
                base: child(base), from: from.map(child), to: to.map(child), span: span, coverageID: coverageID)
        case .call(let callee, let arguments):
            return compileCall(callee: callee, arguments: arguments, span: span, scope: scope, coverageID: coverageID)
        case .unary(let op, let operand):
            let compiled = child(operand)
            if !recordsCoverage, op == .negate, let constant = compiled as? ConstantNode, case .int = constant.value {
                return ConstantNode(Operators.negate(constant.value, span: span), span: span, cost: 2)
            }
            if !recordsCoverage, op == .negate, let constant = compiled as? ConstantNode, case .float = constant.value {
                return ConstantNode(Operators.negate(constant.value, span: span), span: span, cost: 2)
            }
            return UnaryNode(op: op, operand: compiled, span: span, coverageID: coverageID)
        case .binary(let op, let left, let right) where (op == .and || op == .or) && !recordsCoverage:
            // Flatten the left-nested chain of the same operator, compiling operands in order.
            var operandIDs = [right]
            var current = left
            while case .binary(op, let innerLeft, let innerRight) = tree[current].kind {
                operandIDs.insert(innerRight, at: 0)
                current = innerLeft
            }
            operandIDs.insert(current, at: 0)
            return LogicalChainNode(isAnd: op == .and, operands: operandIDs.map(child), span: span)
        case .binary(let op, let left, let right)
        where (op == .equal || op == .notEqual) && !recordsCoverage && isAuthNullTest(left, right, scope):
            return AuthIsNullNode(negated: op == .notEqual, span: span)
        case .binary(let op, let left, let right):
            // `in` evaluates (and reports) its container first, as Google's runtime does.
            let container = op == .in ? child(right) : nil
            let l = child(left)
            let r = container ?? child(right)
            switch op {
            case .add, .subtract, .multiply, .divide, .modulo:
                return ArithmeticNode(op: op, left: l, right: r, span: span, coverageID: coverageID)
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                let comparison: ComparisonOperator =
                    switch op {
                    case .less: .less
                    case .lessOrEqual: .lessOrEqual
                    case .greater: .greater
                    default: .greaterOrEqual
                    }
                return ComparisonNode(op: comparison, left: l, right: r, span: span, coverageID: coverageID)
            case .equal, .notEqual:
                return EqualityNode(negated: op == .notEqual, left: l, right: r, span: span, coverageID: coverageID)
            case .in:
                return InNode(left: l, right: r, span: span, coverageID: coverageID)
            case .and, .or:
                let logical = LogicalNode(isAnd: op == .and, left: l, right: r, span: span, coverageID: coverageID)
                logical.skippedWhenDecided = r.coverageID >= 0 ? coverage.subtree(r.coverageID) : []
                return logical
            }
        case .ternary(let condition, let then, let otherwise):
            return TernaryNode(
                condition: child(condition), then: child(then), otherwise: child(otherwise), span: span,
                coverageID: coverageID)
        case .isType(let operand, let typeName, _):
            return IsNode(operand: child(operand), typeName: typeName, span: span, coverageID: coverageID)
        default:
            return UndefinedNode(span: span)
        }
    }

    /// A member chain on `request` or `resource` (not shadowed) that `RequestFieldNode`
    /// evaluates directly, with any further members on top.
    func resolvedChain(_ id: ExprID, _ scope: Scope) -> Node? {
        var names: [String] = []
        var spans: [SourceSpan] = []
        var current = id
        while case .member(let base, let name, _) = tree[current].kind {
            names.insert(name, at: 0)
            spans.insert(tree[current].span, at: 0)
            current = base
        }
        guard case .identifier(let root) = tree[current].kind, root == "request" || root == "resource",
            case .none = scope.lookupName(root)
        else { return nil }
        // The longest prefix with a resolved field.
        for length in stride(from: min(names.count, 2), through: 1, by: -1) {
            guard let field = RequestFieldNode.Field.match(root: root, names: Array(names[..<length])) else { continue }
            if field.onResource { readsDocuments = true }
            var node: Node = RequestFieldNode(field: field, span: spans[length - 1])
            for index in length..<names.count {
                node =
                    index == length
                    ? RequestFieldMemberNode(field: field, fieldSpan: spans[length - 1], name: names[index], span: spans[index])
                    : MemberNode(base: node, name: names[index], span: spans[index], coverageID: -1)
            }
            return node
        }
        return nil
    }

    /// `x.keys().hasAll([...literal strings])` as one node (see `KeysMembershipNode`).
    func fusedKeysMembership(base: ExprID, name: String, arguments: [ExprID], span: SourceSpan, scope: Scope) -> Node? {
        let kinds: [String: KeysMembershipNode.Kind] = ["hasAll": .all, "hasAny": .any, "hasOnly": .only]
        guard let kind = kinds[name], arguments.count == 1, case .call(let keysCallee, let keysArguments) = tree[base].kind,
            keysArguments.isEmpty, case .member(let mapExpression, "keys", _) = tree[keysCallee].kind,
            case .list(let items) = tree[arguments[0]].kind,
            let keysTable = Library.methods["keys"], let membershipTable = Library.methods[name]
        else { return nil }
        var strings: [RValue] = []
        for item in items {
            guard case .string(let text) = tree[item].kind else { return nil }
            strings.append(.string(text))
        }
        guard let list = ConstantStringList(.list(strings)) else { return nil }
        _ = compileExpression(arguments[0], scope)
        let receiver = compileExpression(mapExpression, scope)
        return KeysMembershipNode(
            receiver: receiver, keysTable: keysTable, membershipTable: membershipTable, list: list,
            listValue: .list(strings), kind: kind, keysSpan: tree[base].span, span: span)
    }

    /// Whether `left == right` compares `request.auth` with `null`.
    func isAuthNullTest(_ left: ExprID, _ right: ExprID, _ scope: Scope) -> Bool {
        func isAuth(_ id: ExprID) -> Bool {
            guard case .member(let base, "auth", _) = tree[id].kind, case .identifier("request") = tree[base].kind,
                case .none = scope.lookupName("request")
            else { return false }
            return true
        }
        func isNull(_ id: ExprID) -> Bool {
            if case .null = tree[id].kind { return true }
            return false
        }
        return (isAuth(left) && isNull(right)) || (isNull(left) && isAuth(right))
    }

    /// The values of nodes that are all constants (and not errors).
    func constants(_ nodes: [Node]) -> [RValue]? {
        var values: [RValue] = []
        values.reserveCapacity(nodes.count)
        for node in nodes {
            guard let constant = node as? ConstantNode, !constant.value.isError else { return nil }
            values.append(constant.value)
        }
        return values
    }

    /// The functions a call of the unknown global `name` may have meant: for `math.foo` the
    /// functions of `math`, otherwise the user functions in scope and the global functions.
    func functionCandidates(for name: String, _ scope: Scope) -> [String] {
        if let dot = name.firstIndex(of: ".") {
            let prefix = name[...dot]
            return Library.globals.keys.filter { $0.hasPrefix(prefix) }.sorted()
        }
        return scope.visibleFunctions + UnresolvedName.globalFunctions
    }

    func compileIdentifier(_ name: String, span: SourceSpan, scope: Scope, coverageID: Int32) -> Node {
        switch scope.lookupName(name) {
        case .slot(let index, let owner):
            owner.usedSlots.insert(index)
            return SlotNode(index: index, span: span, coverageID: coverageID)
        case .pathVariable(let index):
            return PathVariableNode(index: index, span: span, coverageID: coverageID)
        case .none:
            switch name {
            case "request":
                return RequestNode(span: span, coverageID: coverageID)
            case "resource":
                readsDocuments = true
                return ResourceNode(span: span, coverageID: coverageID)
            default:
                let candidates = scope.visibleVariables + UnresolvedName.globalValues
                diagnostics.unresolved(UnresolvedName(kind: .variable, name: name, candidates: candidates), at: span)
                return UndefinedNode(span: span, coverageID: coverageID)
            }
        }
    }

    func compileCall(callee: ExprID, arguments: [ExprID], span: SourceSpan, scope: Scope, coverageID: Int32) -> Node {
        let compileArguments = { arguments.map { self.compileExpression($0, scope) } }
        switch tree[callee].kind {
        case .identifier(let name):
            if let function = scope.lookupFunction(name) {
                scope.functionScope?.function?.callees.append(FunctionReference(info: function))
                if function.declaration.parameters.count != arguments.count {
                    diagnostics.warning("Incorrect number of arguments supplied to function: \(name).", at: tree[callee].span)
                }
                return UserCallNode(
                    function: function.compiled, arguments: compileArguments(), span: span, coverageID: coverageID)
            }
            return compileGlobal(name, nameSpan: tree[callee].span, arguments: arguments, span: span, scope: scope,
                coverageID: coverageID)
        case .member(let base, let name, let nameSpan):
            if !recordsCoverage, let fused = fusedKeysMembership(base: base, name: name, arguments: arguments, span: span, scope: scope) {
                return fused
            }
            if case .identifier(let namespace) = tree[base].kind, Library.namespaces.contains(namespace),
                case .none = scope.lookupName(namespace)
            {
                return compileGlobal(
                    "\(namespace).\(name)", nameSpan: nameSpan, arguments: arguments, span: span, scope: scope,
                    coverageID: coverageID)
            }
            let receiver = compileExpression(base, scope)
            guard let table = Library.methods[name] else {
                let candidates = Library.methods.keys.sorted()
                diagnostics.unresolved(
                    UnresolvedName(kind: .function, name: name, candidates: candidates), at: nameSpan)
                return UnknownFunctionNode(name: name, arguments: compileArguments(), span: span, coverageID: coverageID)
            }
            if let arities = Library.methodArities[name], !arities.contains(arguments.count) {
                diagnostics.warning("Incorrect number of arguments supplied to function: \(name).", at: nameSpan)
            }
            let compiledArguments = compileArguments()
            if ["matches", "split", "replace"].contains(name), let first = compiledArguments.first as? ConstantNode,
                case .string(let pattern) = first.value, RegexCache.shared.regex(pattern) == nil
            {
                diagnostics.error("Invalid regular expression pattern. Pattern: \(pattern).", at: first.span)
            }
            let implementation: BuiltinImplementation = { table.call($0, $1, $2) }
            var bound: BuiltinImplementation?
            var literalPattern: RulesRegex?
            if ["hasAll", "hasAny", "hasOnly"].contains(name), compiledArguments.count == 1,
                let first = compiledArguments[0] as? ConstantNode, let list = ConstantStringList(first.value),
                let specialized = list.bind(name, generic: implementation)
            {
                bound = specialized
            } else if name == "matches", compiledArguments.count == 1, let first = compiledArguments[0] as? ConstantNode,
                case .string(let pattern) = first.value
            {
                // A literal pattern is compiled once, here.
                literalPattern = RegexCache.shared.regex(pattern)
            }
            return MethodCallNode(
                receiver: receiver, table: table, specialized: bound, regex: literalPattern, arguments: compiledArguments,
                span: span, coverageID: coverageID)
        default:
            return UnknownFunctionNode(name: "", arguments: compileArguments(), span: span, coverageID: coverageID)
        }
    }

    func compileGlobal(
        _ name: String, nameSpan: SourceSpan, arguments: [ExprID], span: SourceSpan, scope: Scope, coverageID: Int32
    ) -> Node {
        let compiledArguments = arguments.map { compileExpression($0, scope) }
        guard let global = Library.globals[name] else {
            let candidates = functionCandidates(for: name, scope)
            diagnostics.unresolved(UnresolvedName(kind: .function, name: name, candidates: candidates), at: nameSpan)
            return UnknownFunctionNode(name: name, arguments: compiledArguments, span: span, coverageID: coverageID)
        }
        if !global.arities.contains(arguments.count) {
            diagnostics.warning("Incorrect number of arguments supplied to function: \(name).", at: nameSpan)
        }
        if global.readsDocuments { readsDocuments = true }
        return GlobalCallNode(
            implementation: global.implementation, arguments: compiledArguments, readsDocuments: global.readsDocuments,
            span: span, coverageID: coverageID)
    }
}
