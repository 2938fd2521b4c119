import DocumentModel
import Foundation

/// Runs one request for either protocol: reads the caller from the `Authorization` header,
/// runs the work, reports one `RequestLogEntry`, and turns any failure into a `WireStatus`.
struct RequestRunner: Sendable {
    /// Receives every request's log entry.
    let log: @Sendable (RequestLogEntry) -> Void

    func run<Result: Sendable>(
        _ transport: RequestLogEntry.Transport, method: String, path: String, authorization: String?,
        _ body: (RequestContext) async throws -> Result
    ) async throws(WireStatus) -> Result {
        let start = ContinuousClock.now
        var caller = "-"
        func finish(_ failure: WireStatus?) {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            log(RequestLogEntry(
                transport: transport, method: method, path: path, caller: caller,
                failure: failure.map { FirestoreError($0.code, $0.message) }, duration: seconds))
        }
        do {
            let context = RequestContext(authentication: try AuthorizationHeader.parse(authorization))
            caller = context.callerDescription
            let result = try await body(context)
            finish(nil)
            return result
        } catch {
            let status = WireStatus(error)
            finish(status)
            throw status
        }
    }
}
