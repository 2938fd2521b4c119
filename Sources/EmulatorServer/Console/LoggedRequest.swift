import DocumentStore
import Foundation

/// One request in the console's `RequestLog`: its sequence number, when it finished (wall
/// clock), its log entry, and the security rules decisions made while it ran.
struct LoggedRequest: Sendable {
    /// The request's sequence number: 1 for the server's first request, then increasing by one.
    let id: Int64
    /// When the request finished.
    let time: Date
    /// What the server logs for it.
    let entry: RequestLogEntry
    /// The rules decisions made while it ran, in order (at most `RulesDecisionRecorder.limit`).
    let decisions: [RecordedRulesDecision]
}
