/// The methods an allow statement grants, as bits.
struct MethodSet: OptionSet, Sendable {
    let rawValue: UInt8

    static let get = MethodSet(rawValue: 1)
    static let list = MethodSet(rawValue: 2)
    static let create = MethodSet(rawValue: 4)
    static let update = MethodSet(rawValue: 8)
    static let delete = MethodSet(rawValue: 16)
    static let read: MethodSet = [.get, .list]
    static let write: MethodSet = [.create, .update, .delete]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        switch name {
        case "get": self = .get
        case "list": self = .list
        case "create": self = .create
        case "update": self = .update
        case "delete": self = .delete
        case "read": self = .read
        case "write": self = .write
        default: return nil
        }
    }

    init(_ method: RulesMethod) {
        switch method {
        case .get: self = .get
        case .list: self = .list
        case .create: self = .create
        case .update: self = .update
        case .delete: self = .delete
        }
    }
}

/// A compiled allow statement.
///
/// `@unchecked Sendable`: its condition is a tree of immutable nodes (listed and argued in
/// Unsafe/UnsafeTricks.swift).
final class CompiledAllow: @unchecked Sendable {
    let methods: MethodSet
    /// `nil` for an allow without condition.
    let condition: Node?
    let line: Int
    let offset: Int32
    /// Where the condition starts (with its parentheses): Google's evaluator reports an unknown
    /// of the first phase there.
    let conditionStart: Int32
    /// Whether the condition can read `resource` or documents, so the first phase may not decide it.
    let needsDocuments: Bool

    init(methods: MethodSet, condition: Node?, line: Int, offset: Int32, conditionStart: Int32, needsDocuments: Bool) {
        self.methods = methods
        self.condition = condition
        self.line = line
        self.offset = offset
        self.conditionStart = conditionStart
        self.needsDocuments = needsDocuments
    }
}

/// A compiled match block with its full path from the service root.
final class CompiledMatch: Sendable {
    /// The segments from the service root to this block, inclusive.
    let chain: [PatternSegment]
    /// The index of the glob in `chain`, if any.
    let globIndex: Int?
    let allows: [CompiledAllow]
    let children: [CompiledMatch]
    /// In rules version 1, the children of a glob match never match.
    let childrenDisabled: Bool
    /// The methods its allow statements grant together.
    let methods: MethodSet

    init(chain: [PatternSegment], allows: [CompiledAllow], children: [CompiledMatch], childrenDisabled: Bool) {
        self.chain = chain
        self.globIndex = chain.firstIndex {
            if case .glob = $0 { return true }
            return false
        }
        self.allows = allows
        self.children = children
        self.childrenDisabled = childrenDisabled
        self.methods = allows.reduce(into: MethodSet()) { $0.formUnion($1.methods) }
    }
}

/// A ruleset ready to evaluate.
final class CompiledRuleset: Sendable {
    let version: Int
    let matches: [CompiledMatch]
    /// Every user function of the file: a call refers to its function, so a recursive function
    /// (an error, but compiled all the same) refers to itself, and `deinit` ends that cycle.
    let functions: [CompiledFunction]
    let coverageTable: CoverageTable
    /// Whether any condition reads `resource` or documents.
    let readsDocuments: Bool

    init(
        version: Int, matches: [CompiledMatch], functions: [CompiledFunction], coverageTable: CoverageTable,
        readsDocuments: Bool
    ) {
        self.version = version
        self.matches = matches
        self.functions = functions
        self.coverageTable = coverageTable
        self.readsDocuments = readsDocuments
    }

    deinit {
        // Nothing evaluates any more: the evaluator holds the ruleset.
        for function in functions { function.clear() }
    }
}
