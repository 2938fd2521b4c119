import DocumentStore

/// One request while it runs, as `RequestRunner.begin` opened it: who makes it, and what the
/// console records of it (the rules decisions judging a caller rules apply to, the documents a
/// request on a whole database names). `withLocals` binds those recorders for the request's
/// work; `RequestRunner.finish` reports the request once it is over.
struct RequestScope: Sendable {
    let transport: RequestLogEntry.Transport
    let method: String
    let path: String
    let start: ContinuousClock.Instant
    /// The caller, from the `Authorization` header.
    let context: RequestContext
    /// Records the rules decisions; nil for the owner, whom rules never judge.
    let recorder: RulesDecisionRecorder?
    /// Records the documents the request names, for the methods that name them in the body.
    let documents: RequestDocuments?

    /// Runs a synchronous part of the request's work with its recorders bound.
    func withLocals<Result>(_ body: (RequestContext) throws -> Result) rethrows -> Result {
        try RulesDecisionRecorder.$current.withValue(recorder) {
            try RequestDocuments.$current.withValue(documents) { try body(context) }
        }
    }

    /// Runs the request's work with its recorders bound.
    func withLocals<Result>(_ body: (RequestContext) async throws -> Result) async rethrows -> Result {
        try await RulesDecisionRecorder.$current.withValue(recorder) {
            try await RequestDocuments.$current.withValue(documents) { try await body(context) }
        }
    }
}
