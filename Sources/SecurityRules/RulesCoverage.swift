/// What a ruleset's evaluations covered: for each expression, how often it was evaluated and
/// with which values. Thread-safe; memory is bounded (at most 16 distinct values are kept per
/// expression, the rest counted as `otherValues`).
///
/// ```swift
/// let ruleset = try Ruleset(source: text, options: .init(recordsCoverage: true))
/// // ... evaluate requests ...
/// let json = ruleset.coverage!.jsonReport()   // the shape of the emulator's :ruleCoverage
/// let html = ruleset.coverage!.htmlReport()
/// ```
public final class RulesCoverage: Sendable {
    let store: CoverageStore
    /// The rules file name.
    public let fileName: String
    /// The rules source.
    public let source: String

    init(store: CoverageStore, fileName: String, source: String) {
        self.store = store
        self.fileName = fileName
        self.source = source
    }

    /// Forgets all counts.
    public func reset() {
        store.reset()
    }

    /// The counts of one expression.
    public struct ExpressionCount: Sendable, Hashable {
        /// Where the expression is.
        public let range: SourceRange
        /// How often it was evaluated.
        public let evaluations: Int
        /// How often it was true, false, or an error.
        public let trueCount: Int, falseCount: Int, errorCount: Int
    }

    /// The counts of every reported expression, in source order.
    public var expressions: [ExpressionCount] {
        let stats = store.snapshot()
        return store.table.entries.enumerated().map { index, entry in
            ExpressionCount(
                range: store.source.range(of: entry.span), evaluations: stats[index].evaluations,
                trueCount: stats[index].trueCount, falseCount: stats[index].falseCount,
                errorCount: stats[index].errorCount)
        }.sorted { $0.range.start.offset < $1.range.start.offset }
    }

    /// The report in the JSON shape of Google's emulator's
    /// `GET /emulator/v1/projects/{project}:ruleCoverage`: the rules files, then a tree of
    /// expressions (function bodies first, then allow conditions) with `sourcePosition`,
    /// `values` (each value with its `count`) and `children`.
    public func jsonReport() -> String {
        CoverageReport(store: store, fileName: fileName, source: source).json()
    }

    /// A readable HTML page: the rules source, each line colored by whether its expressions
    /// were evaluated, with every expression's counts of true, false and error.
    public func htmlReport() -> String {
        CoverageReport(store: store, fileName: fileName, source: source).html()
    }
}
