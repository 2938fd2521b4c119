/// Turns a syntax tree into a `CompiledRuleset`, reporting load-time errors and warnings with
/// Google's messages: scopes and names, functions and their limits, match paths.
final class Compiler {
    let tree: SyntaxTree
    let source: SourceText
    let diagnostics: DiagnosticSink
    var version = 1
    var coverage = CoverageTable()
    /// Every user function declared, which holds them for the scopes and the call graph.
    var allFunctions: [FunctionInfo] = []
    /// The coverage root of the expression being compiled.
    var currentCoverageParent: Int32 = -1
    /// The start of the outermost parenthesis around the expression compiled next.
    var pendingParenStart: Int32?
    var readsDocuments = false
    /// Whether coverage is recorded: then every link of a member chain must stay a node.
    var recordsCoverage = false

    static let maximumFunctionParameters = 7
    static let maximumLets = 11
    static let maximumMatchDepth = 10
    static let maximumPathVariables = 20

    init(tree: SyntaxTree, source: SourceText, diagnostics: DiagnosticSink) {
        self.tree = tree
        self.source = source
        self.diagnostics = diagnostics
    }

    func line(of span: SourceSpan) -> Int { source.lineAndColumn(of: Int(span.start)).line }

    func compile() -> CompiledRuleset {
        checkVersion()
        let root = Scope(parent: nil)
        declareFunctions(tree.topLevelFunctions, in: root)
        var matches: [CompiledMatch] = []
        var serviceNames: Set<String> = []
        for service in tree.services {
            if !serviceNames.insert(service.name).inserted {
                diagnostics.error("Duplicate service name declaration.", at: service.nameSpan)
            }
            if service.name != "cloud.firestore" && service.name != "firebase.storage" {
                diagnostics.warning("Invalid service name: \(service.name).", at: service.nameSpan)
            }
            let scope = Scope(parent: root)
            declareFunctions(service.functions, in: scope)
            let compiled = service.matches.map {
                compileMatch($0, parentChain: [], parentScope: scope, depth: 1, inheritedGlob: nil)
            }
            if service.name == "cloud.firestore" { matches += compiled }
        }
        for function in allFunctions where !function.compiledBody { compileFunctionBody(function) }
        CallGraphCheck(functions: allFunctions, diagnostics: diagnostics).run()
        // The report lists function bodies in source order.
        let entries = coverage.entries
        coverage.functionRoots.sort { entries[Int($0)].span.start < entries[Int($1)].span.start }
        return CompiledRuleset(
            version: version, matches: matches, functions: allFunctions.map(\.compiled), coverageTable: coverage,
            readsDocuments: readsDocuments)
    }

    func checkVersion() {
        guard let (value, span) = tree.version else {
            diagnostics.fileDiagnostic(
                .warning, "Ruleset uses old version (version [1]). Please update to the latest version (version [2]).")
            return
        }
        switch value {
        case "1":
            diagnostics.fileDiagnostic(
                .warning, "Ruleset uses old version (version [1]). Please update to the latest version (version [2]).")
        case "2":
            version = 2
        default:
            diagnostics.error("Unsupported rules version \(value).", at: span)
        }
    }

    // MARK: Functions

    func declareFunctions(_ declarations: [FunctionDecl], in scope: Scope) {
        for declaration in declarations {
            if scope.functions[declaration.name] != nil {
                diagnostics.error("Function \(declaration.name) is already defined.", at: declaration.nameSpan)
                continue
            }
            let placeholder = UndefinedNode(span: declaration.bodySpan)
            let compiled = CompiledFunction(
                name: declaration.name, parameterCount: declaration.parameters.count, placeholder: placeholder)
            let info = FunctionInfo(declaration: declaration, scope: scope, compiled: compiled)
            scope.functions[declaration.name] = FunctionReference(info: info)
            allFunctions.append(info)
            checkFunctionDeclaration(declaration)
        }
    }

    func checkFunctionDeclaration(_ declaration: FunctionDecl) {
        if declaration.parameters.count > Compiler.maximumFunctionParameters {
            diagnostics.error(
                "Maximum allowed function arguments of \(Compiler.maximumFunctionParameters) for function \(declaration.name) is reached.",
                at: declaration.nameSpan)
        }
        var names: Set<String> = []
        for parameter in declaration.parameters where !names.insert(parameter.name).inserted {
            diagnostics.error("Variable \(parameter.name) is already defined.", at: parameter.span)
        }
        if version == 1, let first = declaration.lets.first {
            diagnostics.error("Let bindings are not allowed in rules_version=\"1\";", at: first.span)
        }
        if declaration.lets.count > Compiler.maximumLets {
            let following = declaration.lets.count > Compiler.maximumLets + 1
                ? declaration.lets[Compiler.maximumLets + 1].span : declaration.bodySpan
            diagnostics.error("Maximum allowed variable count of 10 for a given function has been reached.", at: following)
        }
    }

    func compileFunctionBody(_ function: FunctionInfo) {
        function.compiledBody = true
        let declaration = function.declaration
        let scope = Scope(parent: function.scope)
        scope.function = function
        for (index, parameter) in declaration.parameters.enumerated() where scope.slots[parameter.name] == nil {
            scope.slots[parameter.name] = index
        }
        // The report of a function body: each `let` is an entry spanning to the end of the
        // return expression, with the bound value and the rest of the body below it.
        let bodyEnd = Int(coverageEnd(declaration.body))
        var letEntries: [Int32] = []
        var lets: [Node] = []
        var duplicateLets: Set<Int> = []
        for (index, binding) in declaration.lets.enumerated() {
            if scope.slots[binding.name] != nil {
                duplicateLets.insert(index)
                diagnostics.error(
                    "The identifier [\(binding.name)] is already bound in the current scope.", at: binding.nameSpan)
            }
            checkDepth(binding.value)
            let entry = coverage.add(span: SourceSpan(Int(binding.span.start), bodyEnd), parent: letEntries.last ?? -1)
            letEntries.append(entry)
            currentCoverageParent = entry
            lets.append(compileExpression(binding.value, scope))
            scope.slots[binding.name] = declaration.parameters.count + index
        }
        checkDepth(declaration.body)
        currentCoverageParent = letEntries.last ?? -1
        let body = compileExpression(declaration.body, scope)
        if let root = letEntries.first {
            function.compiled.coverageIDs = letEntries
            coverage.functionRoots.append(root)
        } else if body.coverageID >= 0 {
            coverage.functionRoots.append(body.coverageID)
        }
        function.compiled.define(lets: lets, body: body)
        // Duplicates were reported already; only the first of a name is looked at.
        for (index, parameter) in declaration.parameters.enumerated()
        where scope.slots[parameter.name] == index && !scope.usedSlots.contains(index) {
            diagnostics.warning("Unused variable: \(parameter.name).", at: parameter.span)
        }
        for (index, binding) in declaration.lets.enumerated() where !duplicateLets.contains(index)
            && !scope.usedSlots.contains(declaration.parameters.count + index)
        {
            diagnostics.warning("Unused variable: \(binding.name).", at: binding.nameSpan)
        }
    }

    // MARK: Matches

    func compileMatch(
        _ match: MatchDecl, parentChain: [PatternSegment], parentScope: Scope, depth: Int,
        inheritedGlob: SourceSpan?
    ) -> CompiledMatch {
        if depth == Compiler.maximumMatchDepth + 1 {
            diagnostics.error(
                "Maximum allowed resource rule depth of \(Compiler.maximumMatchDepth) is reached.", at: match.pathSpan)
        }
        let scope = Scope(parent: parentScope)
        var chain = parentChain
        var globSpan = inheritedGlob
        var names: Set<String> = []
        for (offset, (segment, span, nameSpan)) in match.segments.enumerated() {
            switch segment {
            case .literal:
                break
            case .variable(let name), .glob(let name):
                if !names.insert(name).inserted {
                    diagnostics.error("Variable \(name) already exists in the PathTemplate.", at: nameSpan)
                }
                scope.pathVariables[name] = chain.count
            }
            if case .glob = segment {
                if let previous = globSpan {
                    diagnostics.error(
                        "Invalid glob match expression. Only one glob match is permitted in a match declaration path.",
                        at: SourceSpan(Int(previous.end) - 1, Int(previous.end)))
                } else if version == 1 && offset != match.segments.count - 1 {
                    diagnostics.error(
                        "Invalid glob match expression. Glob matches are permitted as the last segment in a match declaration path.",
                        at: span)
                }
                globSpan = span
            }
            chain.append(segment)
        }
        let variableCount = chain.filter {
            if case .literal = $0 { return false }
            return true
        }.count
        if variableCount > Compiler.maximumPathVariables && names.count > 0 {
            diagnostics.error(
                "Maximum allowed amount of \(Compiler.maximumPathVariables) match field variables is reached.",
                at: match.pathSpan)
        }
        declareFunctions(match.functions, in: scope)
        var allows: [CompiledAllow] = []
        for allow in match.allows {
            if let compiled = compileAllow(allow, scope) { allows.append(compiled) }
        }
        let isGlob = match.segments.contains {
            if case .glob = $0.segment { return true }
            return false
        }
        let childrenDisabled = version == 1 && isGlob && !match.matches.isEmpty
        if childrenDisabled {
            diagnostics.warning("Glob(**) resource rules should not have child resource rules.", at: match.pathSpan)
        }
        let children = match.matches.map {
            compileMatch($0, parentChain: chain, parentScope: scope, depth: depth + 1, inheritedGlob: globSpan)
        }
        for function in scope.functions.values.map(\.info) where !function.compiledBody { compileFunctionBody(function) }
        return CompiledMatch(chain: chain, allows: allows, children: children, childrenDisabled: childrenDisabled)
    }

    func compileAllow(_ allow: AllowDecl, _ scope: Scope) -> CompiledAllow? {
        var methods: MethodSet = []
        for method in allow.methods {
            guard let set = MethodSet(name: method.name) else {
                let name = UnresolvedName(kind: .method, name: method.name, candidates: UnresolvedName.methods)
                diagnostics.unresolved(name, at: method.span)
                continue
            }
            methods.formUnion(set)
        }
        var condition: Node?
        let readsBefore = readsDocuments
        readsDocuments = false
        if let expression = allow.condition {
            checkDepth(expression)
            currentCoverageParent = -1
            let node = compileExpression(expression, scope)
            if node.coverageID >= 0 { coverage.conditionRoots.append(node.coverageID) }
            if let constant = node as? ConstantNode {
                switch constant.value {
                case .bool, .error: break
                case let other:
                    diagnostics.warning(
                        "Invalid type. Received one of [\(other.typeName)]. Expected one of [bool].",
                        at: tree[expression].span)
                }
            }
            condition = node
        }
        let needs = readsDocuments
        readsDocuments = readsBefore || needs
        guard !methods.isEmpty else { return nil }
        return CompiledAllow(
            methods: methods, condition: condition, line: line(of: allow.span), offset: allow.span.start,
            conditionStart: allow.condition.map { tree[$0].span.start } ?? allow.span.start, needsDocuments: needs)
    }
}
