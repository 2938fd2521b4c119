import DocumentModel
import DocumentStore
import FirestoreWire
import Foundation
import SecurityRules

/// The JSON shapes of the console API (Docs/Console.md): request log entries, rules
/// evaluations, diagnostics and coverage. Values and documents are Firestore's REST JSON.
enum ConsoleJSON {
    /// A request log entry: `{"id", "time", "protocol", "method", "path", "documents",
    /// "documentCount", "caller", "verdict", "status", "message", "latencyMs", "hasEvaluation"}`.
    static func entry(_ request: LoggedRequest) -> JSONValue {
        let entry = request.entry
        return .object([
            member("id", JSONValue(request.id)),
            member("time", time(request.time)),
            member("protocol", .string(entry.transport.rawValue)),
            member("method", .string(entry.method)),
            member("path", .string(entry.path)),
            member("documents", .array(entry.documents.map { .string($0) })),
            member("documentCount", JSONValue(Int64(entry.documentCount))),
            member("caller", .string(entry.caller)),
            member("verdict", .string(entry.rules.rawValue)),
            member("status", .string(entry.failure?.code.name ?? "OK")),
            member("message", .string(entry.failure?.message ?? "")),
            member("latencyMs", JSONValue((entry.duration * 100_000).rounded() / 100)),
            member("hasEvaluation", .bool(!request.decisions.isEmpty)),
        ])
    }

    /// An entry with its `"evaluation"` (`null` when no rules decision was made).
    static func entryWithEvaluation(_ request: LoggedRequest) -> JSONValue {
        guard case .object(var members) = entry(request) else { return entry(request) }
        members.append(member("evaluation", evaluation(request.decisions)))
        return .object(members)
    }

    /// `{"project", "fileName", "source", "decisions": [...]}`: the rules that judged the
    /// request and each decision, or `null` without any.
    static func evaluation(_ decisions: [RecordedRulesDecision]) -> JSONValue {
        guard let first = decisions.first else { return .null }
        return .object([
            member("project", .string(first.request.database.project)),
            member("fileName", .string(first.ruleset.fileName)),
            member("source", .string(first.ruleset.source)),
            member("decisions", .array(decisions.map(decision))),
        ])
    }

    /// One decision: the method and rules path asked, the verdict, what the rules saw
    /// (`request.auth`, `resource.data`, `request.resource.data`) and each allow statement
    /// evaluated with its line and outcome.
    static func decision(_ recorded: RecordedRulesDecision) -> JSONValue {
        let request = recorded.request
        let auth: JSONValue =
            request.auth.map { auth in
                .object([member("uid", .string(auth.uid)), member("token", RESTJSON.encode(fields: auth.token))])
            } ?? .null
        return .object([
            member("method", .string(request.method.rawValue)),
            member("path", .string("/databases/\(request.database.database)/documents/\(request.path)")),
            member("allowed", .bool(recorded.decision.allowed)),
            member("auth", auth),
            member("resourceData", request.resource.map { RESTJSON.encode(fields: $0.fields) } ?? .null),
            member("requestResourceData", request.newResource.map { RESTJSON.encode(fields: $0.fields) } ?? .null),
            member("evaluations", .array(recorded.decision.evaluations.map(evaluation))),
        ])
    }

    /// `{"line", "method", "outcome": "true" | "false" | "error", "message"}`.
    static func evaluation(_ evaluation: RuleEvaluation) -> JSONValue {
        let (outcome, message): (String, String) =
            switch evaluation.outcome {
            case .allowed: ("true", "")
            case .denied: ("false", "")
            case .error(let message): ("error", message)
            }
        return .object([
            member("line", JSONValue(Int64(evaluation.line))),
            member("method", .string(evaluation.method.rawValue)),
            member("outcome", .string(outcome)),
            member("message", .string(message)),
        ])
    }

    /// `[{"line", "column", "severity", "message"}]` (`line` and `column` `null` when the
    /// diagnostic has no position).
    static func diagnostics(_ diagnostics: [Diagnostic]) -> JSONValue {
        .array(diagnostics.map { diagnostic in
            .object([
                member("line", diagnostic.location.map { JSONValue(Int64($0.line)) } ?? .null),
                member("column", diagnostic.location.map { JSONValue(Int64($0.column)) } ?? .null),
                member("severity", .string(diagnostic.severity.rawValue)),
                member("message", .string(diagnostic.message)),
            ])
        })
    }

    /// `[{"startLine", "startColumn", "endLine", "endColumn", "evaluations", "trueCount",
    /// "falseCount", "errorCount"}]`, in source order.
    static func coverage(_ coverage: RulesCoverage?) -> JSONValue {
        .array((coverage?.expressions ?? []).map { expression in
            .object([
                member("startLine", JSONValue(Int64(expression.range.start.line))),
                member("startColumn", JSONValue(Int64(expression.range.start.column))),
                member("endLine", JSONValue(Int64(expression.range.end.line))),
                member("endColumn", JSONValue(Int64(expression.range.end.column))),
                member("evaluations", JSONValue(Int64(expression.evaluations))),
                member("trueCount", JSONValue(Int64(expression.trueCount))),
                member("falseCount", JSONValue(Int64(expression.falseCount))),
                member("errorCount", JSONValue(Int64(expression.errorCount))),
            ])
        })
    }

    /// A wall-clock time in RFC 3339, UTC (`2026-11-27T06:00:00.123456Z`).
    static func time(_ date: Date) -> JSONValue {
        .string(Timestamp(date: date).description)
    }

    /// One object member.
    static func member(_ key: String, _ value: JSONValue) -> JSONValue.Member {
        JSONValue.Member(key, value)
    }
}
