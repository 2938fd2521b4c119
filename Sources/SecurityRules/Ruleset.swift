package import DocumentModel

/// A Firestore security rules file, compiled once and evaluated many times, from many threads.
///
/// ```swift
/// let ruleset = try Ruleset(source: rulesText, fileName: "firestore.rules")
/// let decision = ruleset.evaluate(request, lookup: documents)
/// if !decision.allowed {
///     throw FirestoreError(.permissionDenied, "PERMISSION_DENIED: \(decision.message)")
/// }
/// ```
///
/// Compilation reports every error of the file at once (``RulesCompilationError``); warnings
/// (names that only fail when evaluated, unused variables) are in ``warnings``.
public final class Ruleset: Sendable {
    /// Options of a ruleset.
    public struct Options: Sendable, Hashable {
        /// Whether evaluations are counted for ``coverage``. A decision recording coverage costs
        /// about 13 times one without it (24 µs for the profile create of `HearthBenchmarks rules`).
        public var recordsCoverage: Bool
        /// The longest one request may take to evaluate before it is denied.
        public var evaluationTimeLimit: Duration

        /// Creates options.
        public init(recordsCoverage: Bool = false, evaluationTimeLimit: Duration = .seconds(1)) {
            self.recordsCoverage = recordsCoverage
            self.evaluationTimeLimit = evaluationTimeLimit
        }
    }

    /// The rules source.
    public let source: String
    /// The file name used in diagnostics.
    public let fileName: String
    /// The rules version: 1 (the default) or 2 (`rules_version = '2';`).
    public let rulesVersion: Int
    /// The warnings of the file, in source order.
    public let warnings: [Diagnostic]
    /// The options the ruleset was loaded with.
    public let options: Options
    /// What the evaluations so far covered; `nil` unless `options.recordsCoverage`.
    public let coverage: RulesCoverage?

    let compiled: CompiledRuleset
    let text: SourceText
    let evaluator: Evaluator

    /// Compiles a rules file.
    ///
    /// - Throws: ``RulesCompilationError`` with every diagnostic of the file when it has errors.
    public init(source: String, fileName: String = "firestore.rules", options: Options = Options()) throws(RulesCompilationError) {
        let (compiled, text, sink) = Ruleset.compile(
            source: source, fileName: fileName, recordsCoverage: options.recordsCoverage)
        let diagnostics = sink.sorted
        guard let compiled, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw RulesCompilationError(diagnostics: diagnostics)
        }
        self.source = source
        self.fileName = fileName
        self.options = options
        self.compiled = compiled
        self.text = text
        self.rulesVersion = compiled.version
        self.warnings = diagnostics
        let store = options.recordsCoverage ? CoverageStore(table: compiled.coverageTable, source: text) : nil
        self.coverage = store.map { RulesCoverage(store: $0, fileName: fileName, source: source) }
        self.evaluator = Evaluator(
            ruleset: compiled, source: text, coverage: store, timeLimit: options.evaluationTimeLimit)
    }

    /// Every diagnostic of a rules file, errors and warnings, in source order, with the
    /// messages of Google's rules compiler; empty for a clean file. ``RulesLinter`` gives the
    /// same diagnostics with suggestions for mistyped names, as `hearth rules check` prints them.
    public static func check(source: String, fileName: String = "firestore.rules") -> [Diagnostic] {
        compile(source: source, fileName: fileName).2.sorted
    }

    /// Parses and compiles a file: the ruleset (`nil` after a syntax error) and what was found.
    static func compile(source: String, fileName: String, recordsCoverage: Bool = false) -> (
        CompiledRuleset?, SourceText, DiagnosticSink
    ) {
        let text = SourceText(source, fileName: fileName)
        let sink = DiagnosticSink(source: text)
        let tree = Parser.parse(text, diagnostics: sink)
        guard !sink.hasErrors else { return (nil, text, sink) }
        let compiler = Compiler(tree: tree, source: text, diagnostics: sink)
        compiler.recordsCoverage = recordsCoverage
        let compiled = compiler.compile()
        return (compiled, text, sink)
    }

    /// Decides a request.
    ///
    /// - Parameters:
    ///   - request: who asks to do what to which document.
    ///   - lookup: the documents `get()`, `exists()`, `getAfter()` and `existsAfter()` read.
    public func evaluate(_ request: RulesRequest, lookup: any DocumentLookup = NoDocuments()) -> RulesDecision {
        evaluator.decide(request, lookup: lookup, tracker: nil)
    }

    /// Decides a request that is one write of a batch or transaction the store decides write by
    /// write: `accessTracker` is shared by the batch's writes, so that their rules together read
    /// at most the request's ``RulesRequest/AccessScope`` limit of documents. (Users of the
    /// library decide a batch with ``evaluate(batch:lookup:)``.)
    package func evaluate(
        _ request: RulesRequest, lookup: any DocumentLookup, accessTracker: RulesAccessTracker?
    ) -> RulesDecision {
        evaluator.decide(request, lookup: lookup, tracker: accessTracker)
    }

    /// Decides the writes of a batched write or transaction together: allowed when every write
    /// is. As in Google's evaluator, the first phase runs for all writes before the second, and
    /// the writes share one limit of document reads (give them the
    /// ``RulesRequest/AccessScope/multipleDocuments`` scope). The message lists the evaluations
    /// that failed, in that order.
    public func evaluate(batch requests: [RulesRequest], lookup: any DocumentLookup) -> RulesDecision {
        evaluator.decideBatch(requests, lookup: lookup)
    }
}
