/// The verdict on a request, with the allow statements that were evaluated.
///
/// ```swift
/// let decision = ruleset.evaluate(request, lookup: store)
/// if !decision.allowed { throw FirestoreError(.permissionDenied, decision.message) }
/// ```
public struct RulesDecision: Sendable, Hashable {
    /// Whether the request is allowed.
    public let allowed: Bool
    /// The allow statements evaluated and how each ended, in evaluation order; empty when no
    /// allow statement matched the request.
    public let evaluations: [RuleEvaluation]

    /// Creates a decision.
    public init(allowed: Bool, evaluations: [RuleEvaluation]) {
        self.allowed = allowed
        self.evaluations = evaluations
    }

    /// The denial message in Google's emulator's words: `No matching allow statements` when no
    /// allow statement matched; otherwise a line break followed by each evaluation that failed,
    /// separated by `, `, such as `false for 'create' @ L12`. Empty when allowed.
    public var message: String {
        guard !allowed else { return "" }
        let failed = evaluations.filter { $0.outcome != .allowed }
        if failed.isEmpty { return "No matching allow statements" }
        return "\n" + failed.map(\.description).joined(separator: ", ")
    }
}

/// One allow statement evaluated for a request.
public struct RuleEvaluation: Sendable, Hashable, CustomStringConvertible {
    /// How the condition ended.
    public enum Outcome: Sendable, Hashable {
        /// The condition was true.
        case allowed
        /// The condition was false.
        case denied
        /// The condition failed with this message (`Property x is undefined on object.`).
        case error(String)
    }

    /// The request's method.
    public let method: RulesMethod
    /// The line of the allow statement.
    public let line: Int
    /// The result.
    public let outcome: Outcome

    /// Creates an evaluation.
    public init(method: RulesMethod, line: Int, outcome: Outcome) {
        self.method = method
        self.line = line
        self.outcome = outcome
    }

    /// `false for 'create' @ L12`, `<message> for 'get' @ L3`, `true for 'list' @ L7`.
    public var description: String {
        let result: String
        switch outcome {
        case .allowed: result = "true"
        case .denied: result = "false"
        case .error(let message): result = message
        }
        return "\(result) for '\(method.rawValue)' @ L\(line)"
    }
}
