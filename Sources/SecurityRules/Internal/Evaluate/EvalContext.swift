import DocumentModel

/// The state of one evaluation of a request: the request, path variable values, the frames
/// of function calls, the count of evaluated expressions, document reads, and coverage.
/// Not shared between threads.
final class EvalContext {
    /// A function argument or `let`: evaluated lazily, at most once, as Google's runtime does
    /// (an unused argument that would fail does not fail the call).
    struct Slot {
        enum State {
            case value(RValue)
            /// The node is held by the ruleset, which outlives the evaluation.
            case pending(Unretained<Node>, frameBase: Int)
        }

        var state: State
        /// The map of a `.value(.map)` state, held by it: a member of the slot (`data.email`)
        /// is read through it without copying the value.
        var map: Unretained<RMap>?
    }

    /// The two phases of Google's evaluator: the first has no document reads (`resource` and
    /// `get()` are unknown there); the second, run only when the first does not decide, has them.
    enum Phase {
        case first, second
    }

    /// Where document reads go, for building the request's `DocumentAccess` on first use.
    struct DocumentSource {
        let lookup: any DocumentLookup
        let tracker: RulesAccessTracker?
    }

    let request: PreparedRequest
    /// The document reads: given (shared by the disjuncts of a query) or made on first use.
    private var sharedDocuments: DocumentAccess?
    private let documentSource: DocumentSource
    /// The path variables' values of the allow being evaluated, when its match has a glob.
    var pathValues: [RValue] = []
    /// The match of the allow being evaluated, when it has no glob: the variables' values are
    /// the request path's segments. Held by the ruleset.
    var pathSource: Unretained<CompiledMatch>?
    let timeLimit: Duration
    /// Set at the first time check (after 64 expressions), in `EvaluationClock` nanoseconds:
    /// the evaluation of a request is bounded by `timeLimit` from there.
    private var deadline: UInt64?
    let coverage: CoverageBuffer?

    var steps: Int32 = 0
    var frameBase = 0
    var callDepth = 0
    var touchedUnknown = false
    var phase = Phase.second
    /// The stack of arguments and `let`s of the calls being evaluated. `@exclusivity(unchecked)`:
    /// see Unsafe/UnsafeTricks.swift.
    @exclusivity(unchecked) private var slots = SlotStack()
    var slotCount: Int { slots.count }

    static let stepLimit: Int32 = 1000

    init(
        request: PreparedRequest, documents: DocumentAccess?, documentSource: DocumentSource, timeLimit: Duration,
        coverage: CoverageBuffer?
    ) {
        self.request = request
        self.sharedDocuments = documents
        self.documentSource = documentSource
        self.timeLimit = timeLimit
        self.coverage = coverage
    }

    /// Evaluates a node: counts it, enforces the limits, records coverage.
    @inline(__always)
    func eval(_ node: Node) -> RValue {
        if let limit = enter(node) { return limit }
        let value = node.evaluate(self)
        if node.coverageID >= 0, let coverage {
            coverage.record(node.coverageID, value)
        }
        return value
    }

    /// Counts an evaluation of `node` toward the limits, as `eval` does: the error that ends
    /// the evaluation if a limit is reached, otherwise `nil`. For nodes a caller evaluates in
    /// place (a literal argument, a map read in its slot), which record no coverage.
    @inline(__always)
    func enter(_ node: Node) -> RValue? {
        steps &+= node.cost
        let steps = self.steps
        if steps > EvalContext.stepLimit { return .error(RError.expressionLimit) }
        if steps & 63 == 0 && pastDeadline() { return .error(RError.timeLimit) }
        return nil
    }

    /// Whether the time limit has passed (starting the clock on the first call).
    @inline(never)
    func pastDeadline() -> Bool {
        let now = EvaluationClock.nanoseconds()
        guard let deadline else {
            deadline = now + EvaluationClock.nanoseconds(of: timeLimit)
            return false
        }
        return now > deadline
    }

    /// The document reads of the request.
    var documents: DocumentAccess {
        if let sharedDocuments { return sharedDocuments }
        let request = self.request
        let own = request.method == .list ? nil : try? DocumentName(request.database, request.request.path)
        let made = DocumentAccess(
            lookup: documentSource.lookup, limit: request.request.accessScope.limit, ownDocument: own,
            tracker: documentSource.tracker)
        sharedDocuments = made
        return made
    }

    /// The document reads, if any were made or given.
    var madeDocuments: DocumentAccess? { sharedDocuments }

    /// Counts expressions that are evaluated without a node of their own (a jump).
    @inline(__always)
    func count(_ extra: Int32) {
        steps &+= extra
    }

    // MARK: Slots

    /// Appends a pending slot to the stack: `node`, to evaluate with the frame at `frameBase`.
    func pushSlot(pending node: Unretained<Node>, frameBase: Int) {
        slots.push(Slot(state: .pending(node, frameBase: frameBase), map: nil))
    }

    /// Removes the slots from `count` on.
    func popSlots(to count: Int) {
        slots.pop(to: count)
    }

    /// Reads a slot, forcing a pending argument or `let`.
    func readSlot(_ index: Int) -> RValue {
        guard index < slots.count else { return .null }
        switch slots.state(index) {
        case .value(let value):
            return value
        case .pending(let node, let base):
            return force(index, node, frameBase: base)
        }
    }

    /// The map a slot holds, without copying it (forcing a pending slot); `nil` if the slot
    /// holds another value. The map stays valid while the slot does.
    @inline(__always)
    func slotMap(_ index: Int) -> Unretained<RMap>? {
        guard index < slots.count else { return nil }
        if let map = slots.map(index) { return map }
        guard case .pending(let node, let base) = slots.state(index) else { return nil }
        _ = force(index, node, frameBase: base)
        return index < slots.count ? slots.map(index) : nil
    }

    /// Evaluates a pending slot and keeps its value. (The evaluation may grow the stack.)
    private func force(_ index: Int, _ node: Unretained<Node>, frameBase base: Int) -> RValue {
        let saved = frameBase
        frameBase = base
        let value = node.with { eval($0) }
        frameBase = saved
        var map: Unretained<RMap>?
        if case .map(let object) = value { map = Unretained(object) }
        slots.replace(index, with: Slot(state: .value(value), map: map))
        return value
    }

    /// A value the first phase cannot know.
    func unknown(at span: SourceSpan) -> RValue {
        touchedUnknown = true
        return .error(RError("", kind: .unknown, span: span))
    }
}
