import DocumentModel

/// Decides requests against a compiled ruleset, the way Google's evaluator does:
///
/// 1. The allow statements of every matching match block for the request's method, in source
///    order, OR together; none matching denies (`No matching allow statements`).
/// 2. A first phase evaluates them without document reads (`resource`, `get()`... are
///    unknown). A true condition allows; if all are false, the request is denied.
/// 3. Otherwise a second phase evaluates again with the reads; conditions whose first result
///    did not depend on an unknown keep it. The denial lists both phases.
///
/// For `list`, the query's filter is split into disjuncts and each must be allowed.
///
/// A class, so that a decision reads its fields in place rather than copying them.
final class Evaluator: Sendable {
    let ruleset: CompiledRuleset
    let source: SourceText
    let coverage: CoverageStore?
    let timeLimit: Duration

    init(ruleset: CompiledRuleset, source: SourceText, coverage: CoverageStore?, timeLimit: Duration) {
        self.ruleset = ruleset
        self.source = source
        self.coverage = coverage
        self.timeLimit = timeLimit
    }

    struct Candidate {
        let allow: CompiledAllow
        /// The values of the match's path variables: given for a match with a glob; for one
        /// without, read from the request's path when used (`pathSource`).
        let values: [RValue]
        /// The match, for a match without a glob; held by the ruleset.
        let pathSource: Unretained<CompiledMatch>?
    }

    func decide(_ request: RulesRequest, lookup: any DocumentLookup, tracker: RulesAccessTracker?) -> RulesDecision {
        let candidates = self.candidates(for: request)
        guard !candidates.isEmpty else { return RulesDecision(allowed: false, evaluations: []) }
        let source = EvalContext.DocumentSource(lookup: lookup, tracker: tracker)
        let buffer: CoverageBuffer? = coverage == nil ? nil : CoverageBuffer()
        defer { if let coverage, let buffer { coverage.merge(buffer) } }

        if request.method != .list {
            return PreparedRequest.with(request) { run(candidates, $0, nil, source, buffer) }
        }
        // The disjuncts of a query share their document reads.
        var access: DocumentAccess?
        var evaluations: [RuleEvaluation] = []
        var allowed = true
        for disjunct in QueryConstraints.disjuncts(of: request.query?.filter) {
            let decision: RulesDecision
            if let bound = Evaluator.boundDocument(of: disjunct, in: request) {
                // Measured on Google's emulator: a disjunct that names one document of the
                // queried collection (`__name__ ==`, or an `in` value) binds the match's
                // path variables to that document.
                let boundCandidates = self.candidates(for: bound, namingDocument: true)
                decision = PreparedRequest.with(bound, listConstraints: disjunct) {
                    run(boundCandidates, $0, access, source, buffer) { access = $0 }
                }
            } else {
                decision = PreparedRequest.with(request, listConstraints: disjunct) {
                    run(candidates, $0, access, source, buffer) { access = $0 }
                }
            }
            if !decision.allowed {
                allowed = false
                evaluations += decision.evaluations
            }
        }
        return RulesDecision(allowed: allowed, evaluations: evaluations)
    }

    /// The list request `request` with its path narrowed to the one document `disjunct`
    /// constrains `__name__` to, when that document lies directly in the queried collection.
    static func boundDocument(of disjunct: QueryConstraints, in request: RulesRequest) -> RulesRequest? {
        guard request.query?.collectionGroup != true, case .path(let name)? = disjunct.fields[["__name__"]]?.equal
        else { return nil }
        let prefix = ["databases", request.database.database, "documents"]
        guard name.segments.count == prefix.count + request.path.segments.count + 1,
            Array(name.segments.prefix(prefix.count)) == prefix,
            Array(name.segments.dropFirst(prefix.count).dropLast()) == request.path.segments,
            let path = try? ResourcePath(segments: Array(name.segments.dropFirst(prefix.count)))
        else { return nil }
        var bound = request
        bound.path = path
        return bound
    }

    /// The allow statements for a request's method in the match blocks matching its path, in
    /// source order, with their path variables.
    /// With `namingDocument`, a `list` request's path is a document's (see `boundDocument`).
    func candidates(for request: RulesRequest, namingDocument: Bool = false) -> [Candidate] {
        let matcher = PathMatcher(
            database: request.database.database, path: request.path.segments,
            method: namingDocument ? .get : request.method,
            collectionGroup: request.method == .list && request.query?.collectionGroup == true,
            version: ruleset.version)
        let wanted = MethodSet(request.method)
        var candidates: [Candidate] = []
        matcher.visitMatches(in: ruleset.matches, method: wanted) { match, values in
            let source = values == nil ? Unretained(match) : nil
            for allow in match.allows where allow.methods.contains(wanted) {
                candidates.append(Candidate(allow: allow, values: values ?? [], pathSource: source))
            }
        }
        var sorted = true
        for index in candidates.indices.dropFirst() where candidates[index - 1].allow.offset > candidates[index].allow.offset {
            sorted = false
            break
        }
        return sorted ? candidates : candidates.sorted { $0.allow.offset < $1.allow.offset }
    }

    /// The outcome of one condition in one phase.
    struct Result {
        var outcome: RuleEvaluation.Outcome
        var dependsOnUnknown: Bool
        var fatal: Bool
    }

    /// A flag per candidate: a word holds the first 64 (no allocation), an array the others.
    struct Flags {
        private var word: UInt64 = 0
        private var others: [Bool] = []

        subscript(index: Int) -> Bool {
            index < 64 ? word & (1 << UInt64(index)) != 0 : others[index - 64]
        }

        /// Sets the flag of the next candidate, `index`.
        mutating func append(_ flag: Bool, at index: Int) {
            if index < 64 {
                if flag { word |= 1 << UInt64(index) }
            } else {
                others.append(flag)
            }
        }

        var any: Bool { word != 0 || others.contains(true) }
    }

    /// One request between its two phases.
    struct Run {
        let candidates: [Candidate]
        let context: EvalContext
        /// Whether each first-phase result depended on an unknown; the results are the first
        /// `candidates.count` evaluations.
        var firstDependsOnUnknown = Flags()
        var evaluations: [RuleEvaluation] = []
        /// Set once the request is decided.
        var allowed: Bool?
        /// With coverage: the coverage events of each candidate's latest evaluation.
        var coverageEvents: [Range<Int>] = []

        init(candidates: [Candidate], context: EvalContext) {
            self.candidates = candidates
            self.context = context
            evaluations.reserveCapacity(candidates.count)
        }
    }

    /// Decides one prepared request; `keepDocuments` receives the document reads it made, for
    /// the next disjunct of a query.
    func run(
        _ candidates: [Candidate], _ prepared: PreparedRequest, _ access: DocumentAccess?,
        _ source: EvalContext.DocumentSource, _ buffer: CoverageBuffer?,
        keepDocuments: ((DocumentAccess) -> Void)? = nil
    ) -> RulesDecision {
        let context = EvalContext(
            request: prepared, documents: access, documentSource: source, timeLimit: timeLimit, coverage: buffer)
        var state = Run(candidates: candidates, context: context)
        firstPhase(&state)
        if state.allowed == nil { secondPhase(&state) }
        if let keepDocuments, let made = context.madeDocuments { keepDocuments(made) }
        return RulesDecision(allowed: state.allowed ?? false, evaluations: state.evaluations)
    }

    /// Evaluates without document reads; decides when a condition holds or all are false.
    func firstPhase(_ state: inout Run) {
        let context = state.context
        let method = context.request.method
        context.phase = .first
        // (Checked here: passing `state` copies it.)
        defer { if context.coverage != nil { repeatCoverage(state, considered: state.evaluations.count, reused: []) } }
        for candidate in state.candidates {
            let start = context.coverage?.events.count ?? 0
            let result = evaluate(candidate, context)
            if let coverage = context.coverage { state.coverageEvents.append(start..<coverage.events.count) }
            state.firstDependsOnUnknown.append(result.dependsOnUnknown, at: state.evaluations.count)
            state.evaluations.append(RuleEvaluation(method: method, line: candidate.allow.line, outcome: result.outcome))
            if result.outcome == .allowed {
                state.allowed = true
                return
            }
            if result.fatal {
                state.allowed = false
                return
            }
        }
        // Google's evaluator reruns a write or a get when the first phase ended in an error; a
        // list only when a document read was unknown.
        let decided =
            method == .list
            ? !state.firstDependsOnUnknown.any : state.evaluations.allSatisfy { $0.outcome == .denied }
        if decided { state.allowed = false }
    }

    /// Evaluates again with document reads; conditions whose first result did not depend on an
    /// unknown keep it.
    func secondPhase(_ state: inout Run) {
        let context = state.context
        let method = context.request.method
        context.phase = .second
        context.steps = 0
        var considered = 0
        var reused: Set<Int> = []
        defer { if context.coverage != nil { repeatCoverage(state, considered: considered, reused: reused) } }
        for (index, candidate) in state.candidates.enumerated() {
            considered += 1
            let result: Result
            if state.firstDependsOnUnknown[index] {
                let start = context.coverage?.events.count ?? 0
                result = evaluate(candidate, context)
                if let coverage = context.coverage { state.coverageEvents[index] = start..<coverage.events.count }
            } else {
                result = Result(outcome: state.evaluations[index].outcome, dependsOnUnknown: false, fatal: false)
                reused.insert(index)
            }
            state.evaluations.append(RuleEvaluation(method: method, line: candidate.allow.line, outcome: result.outcome))
            if result.outcome == .allowed {
                state.allowed = true
                return
            }
            if result.fatal { break }
        }
        state.allowed = false
    }

    /// Google's emulator reports coverage as if a phase evaluated the OR of the first 1, 2...
    /// `considered` conditions in turn: condition `j` counts `considered - j` times, also when
    /// its result was reused. The events of each evaluation are repeated to match.
    func repeatCoverage(_ state: Run, considered: Int, reused: Set<Int>) {
        guard let buffer = state.context.coverage else { return }
        for index in 0..<considered {
            let range = state.coverageEvents[index]
            let copies = considered - index - (reused.contains(index) ? 0 : 1)
            guard copies > 0, !range.isEmpty else { continue }
            let events = Array(buffer.events[range])
            for _ in 0..<copies { buffer.events += events }
        }
    }

    /// Decides the writes of a batch or transaction together: each must be allowed. The first
    /// phase runs for every write before the second, and the document-read limit is shared.
    func decideBatch(_ requests: [RulesRequest], lookup: any DocumentLookup) -> RulesDecision {
        let tracker = RulesAccessTracker()
        let source = EvalContext.DocumentSource(lookup: lookup, tracker: tracker)
        let buffer: CoverageBuffer? = coverage == nil ? nil : CoverageBuffer()
        defer { if let coverage, let buffer { coverage.merge(buffer) } }
        return PreparedRequest.withEach(requests) { prepared in
            var runs: [Run] = []
            var evaluations: [RuleEvaluation] = []
            for index in requests.indices {
                let candidates = self.candidates(for: requests[index])
                guard !candidates.isEmpty else { return RulesDecision(allowed: false, evaluations: evaluations) }
                let context = EvalContext(
                    request: prepared[index], documents: nil, documentSource: source,
                    timeLimit: timeLimit, coverage: buffer)
                var state = Run(candidates: candidates, context: context)
                firstPhase(&state)
                evaluations += state.evaluations.filter { $0.outcome != .allowed }
                if state.allowed == false { return RulesDecision(allowed: false, evaluations: evaluations) }
                runs.append(state)
            }
            for index in runs.indices where runs[index].allowed == nil {
                var state = runs[index]
                let before = state.evaluations.count
                secondPhase(&state)
                evaluations += state.evaluations[before...].filter { $0.outcome != .allowed }
                if state.allowed == false { return RulesDecision(allowed: false, evaluations: evaluations) }
            }
            return RulesDecision(allowed: true, evaluations: evaluations)
        }
    }

    func evaluate(_ candidate: Candidate, _ context: EvalContext) -> Result {
        guard let condition = candidate.allow.condition else {
            return Result(outcome: .allowed, dependsOnUnknown: false, fatal: false)
        }
        context.pathValues = candidate.values
        context.pathSource = candidate.pathSource
        context.touchedUnknown = false
        context.popSlots(to: 0)
        context.frameBase = 0
        context.callDepth = 0
        let value = context.eval(condition)
        let unknown = context.touchedUnknown
        switch value {
        case .bool(true):
            return Result(outcome: .allowed, dependsOnUnknown: unknown, fatal: false)
        case .bool(false):
            return Result(outcome: .denied, dependsOnUnknown: unknown, fatal: false)
        case .error(let error):
            switch error.kind {
            case .unknown:
                let (line, column) = source.lineAndColumn(of: Int(candidate.allow.conditionStart))
                return Result(outcome: .error("evaluation error at L\(line):\(column)"), dependsOnUnknown: unknown, fatal: false)
            case .failure:
                return Result(outcome: .error(error.message), dependsOnUnknown: unknown, fatal: false)
            case .fatal:
                return Result(outcome: .error(error.message), dependsOnUnknown: false, fatal: true)
            }
        default:
            let message = "Type error. Received: [\(value.typeName)] Expected: [bool]."
            return Result(outcome: .error(message), dependsOnUnknown: unknown, fatal: false)
        }
    }
}
