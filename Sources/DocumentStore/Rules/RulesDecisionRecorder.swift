package import SecurityRules
import Synchronization

/// Collects the security rules decisions made while one request runs, for the server's console:
/// the server sets `current` around a request's work, and the store's rules checks report each
/// decision to it.
///
/// Without a recorder (the embedded client, the rules-testing harness, benchmarks) a check costs
/// one task-local read more. A recorder keeps the first `limit` decisions and ignores the rest.
///
/// ```swift
/// let recorder = RulesDecisionRecorder()
/// try await RulesDecisionRecorder.$current.withValue(recorder) { try await work() }
/// for decision in recorder.decisions { print(decision.request.method, decision.decision.allowed) }
/// ```
package final class RulesDecisionRecorder: Sendable {
    /// The recorder of the request running in this task, if any.
    @TaskLocal package static var current: RulesDecisionRecorder?

    /// The most decisions one request records.
    package static let limit = 20

    private let recorded = Mutex<[RecordedRulesDecision]>([])

    package init() {}

    /// Records one decision, unless `limit` were recorded already.
    func record(_ decision: RulesDecision, for request: RulesRequest, by ruleset: Ruleset) {
        recorded.withLock { decisions in
            guard decisions.count < RulesDecisionRecorder.limit else { return }
            decisions.append(RecordedRulesDecision(request: request, decision: decision, ruleset: ruleset))
        }
    }

    /// The decisions recorded so far, in the order they were made.
    package var decisions: [RecordedRulesDecision] { recorded.withLock { $0 } }
}

/// One security rules decision a `RulesDecisionRecorder` kept: what was asked (method, path,
/// `request.auth`, `resource`, `request.resource`), the verdict with the allow statements
/// evaluated, and the ruleset that judged it (its source is shared, not copied).
package struct RecordedRulesDecision: Sendable {
    package let request: RulesRequest
    package let decision: RulesDecision
    package let ruleset: Ruleset
}
