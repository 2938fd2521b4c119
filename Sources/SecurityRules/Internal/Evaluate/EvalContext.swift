import DocumentModel

/// The state of one evaluation of a request: the request, path variable values, the frames
/// of function calls, the count of evaluated expressions, document reads, and coverage.
/// Not shared between threads.
///
/// The counters and the slots live behind pointers: they change at every node, and class
/// properties would pay for dynamic exclusivity checks there.
final class EvalContext {
    /// A function argument or `let`: evaluated lazily, at most once, as Google's runtime does
    /// (an unused argument that would fail does not fail the call).
    enum Slot {
        case value(RValue)
        case pending(Node, frameBase: Int)
    }

    /// The two phases of Google's evaluator: the first has no document reads (`resource` and
    /// `get()` are unknown there); the second, run only when the first does not decide, has them.
    enum Phase {
        case first, second
    }

    struct Counters {
        var steps: Int32 = 0
        var frameBase = 0
        var callDepth = 0
        var slotCount = 0
        var slotCapacity = 0
        var touchedUnknown = false
        var phase = Phase.second
    }

    let request: PreparedRequest
    /// The document reads: given (shared by the disjuncts of a query) or made on first use.
    private var sharedDocuments: DocumentAccess?
    private let makeDocuments: () -> DocumentAccess
    var pathValues: [RValue] = []
    let timeLimit: Duration
    /// Set at the first time check (after 64 expressions): the evaluation of a request is
    /// bounded by `timeLimit` from there.
    private var deadline: ContinuousClock.Instant?
    let coverage: CoverageBuffer?
    private let counters: UnsafeMutablePointer<Counters>
    private var slotBuffer: UnsafeMutablePointer<Slot>

    static let stepLimit: Int32 = 1000

    init(
        request: PreparedRequest, documents: DocumentAccess?, makeDocuments: @escaping () -> DocumentAccess,
        timeLimit: Duration, coverage: CoverageBuffer?
    ) {
        self.request = request
        self.sharedDocuments = documents
        self.makeDocuments = makeDocuments
        self.timeLimit = timeLimit
        self.coverage = coverage
        counters = .allocate(capacity: 1)
        counters.initialize(to: Counters())
        slotBuffer = .allocate(capacity: 0)
        counters.pointee.slotCapacity = 0
    }

    deinit {
        slotBuffer.deinitialize(count: counters.pointee.slotCount)
        slotBuffer.deallocate()
        counters.deinitialize(count: 1)
        counters.deallocate()
    }

    var phase: Phase {
        get { counters.pointee.phase }
        set { counters.pointee.phase = newValue }
    }

    var steps: Int32 {
        get { counters.pointee.steps }
        set { counters.pointee.steps = newValue }
    }

    var frameBase: Int {
        get { counters.pointee.frameBase }
        set { counters.pointee.frameBase = newValue }
    }

    var callDepth: Int {
        get { counters.pointee.callDepth }
        set { counters.pointee.callDepth = newValue }
    }

    var touchedUnknown: Bool {
        get { counters.pointee.touchedUnknown }
        set { counters.pointee.touchedUnknown = newValue }
    }

    /// Evaluates a node: counts it, enforces the limits, records coverage.
    @inline(__always)
    func eval(_ node: Node) -> RValue {
        counters.pointee.steps &+= node.cost
        let steps = counters.pointee.steps
        if steps > EvalContext.stepLimit { return .error(RError.expressionLimit) }
        if steps & 63 == 0 && pastDeadline() { return .error(RError.timeLimit) }
        let value = node.evaluate(self)
        if node.coverageID >= 0, let coverage {
            coverage.record(node.coverageID, value)
        }
        return value
    }

    /// Whether the time limit has passed (starting the clock on the first call).
    @inline(never)
    func pastDeadline() -> Bool {
        let now = ContinuousClock.now
        guard let deadline else {
            deadline = now.advanced(by: timeLimit)
            return false
        }
        return now > deadline
    }

    /// The document reads of the request.
    var documents: DocumentAccess {
        if let sharedDocuments { return sharedDocuments }
        let made = makeDocuments()
        sharedDocuments = made
        return made
    }

    /// Counts expressions that are evaluated without a node of their own (a jump).
    @inline(__always)
    func count(_ extra: Int32) {
        counters.pointee.steps &+= extra
    }

    // MARK: Slots

    var slotCount: Int { counters.pointee.slotCount }

    /// Appends a slot to the stack.
    func pushSlot(_ slot: Slot) {
        let count = counters.pointee.slotCount
        if count == counters.pointee.slotCapacity {
            let capacity = max(16, count * 2)
            let grown = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
            grown.moveInitialize(from: slotBuffer, count: count)
            slotBuffer.deallocate()
            slotBuffer = grown
            counters.pointee.slotCapacity = capacity
        }
        (slotBuffer + count).initialize(to: slot)
        counters.pointee.slotCount = count + 1
    }

    /// Removes the slots from `count` on.
    func popSlots(to count: Int) {
        let current = counters.pointee.slotCount
        guard current > count else { return }
        (slotBuffer + count).deinitialize(count: current - count)
        counters.pointee.slotCount = count
    }

    /// Reads a slot, forcing a pending argument or `let`.
    func readSlot(_ index: Int) -> RValue {
        guard index < counters.pointee.slotCount else { return .null }
        switch slotBuffer[index] {
        case .value(let value):
            return value
        case .pending(let node, let base):
            let saved = frameBase
            frameBase = base
            let value = eval(node)
            frameBase = saved
            slotBuffer[index] = .value(value)
            return value
        }
    }

    /// A value the first phase cannot know.
    func unknown(at span: SourceSpan) -> RValue {
        touchedUnknown = true
        return .error(RError("", kind: .unknown, span: span))
    }
}
