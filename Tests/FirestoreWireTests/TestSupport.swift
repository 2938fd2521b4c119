import DocumentModel
import Testing

/// Runs `body` and expects it to throw a `FirestoreError` with `code` whose message contains
/// `text` (when given).
func expectFirestoreError(
    _ code: FirestoreError.Code,
    mentioning text: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected a FirestoreError \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as FirestoreError {
        #expect(error.code == code, "wrong code in \(error)", sourceLocation: sourceLocation)
        if let text {
            #expect(
                error.message.contains(text), "\(error) does not mention \(text.debugDescription)",
                sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("expected a FirestoreError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

/// A document name in the test database `projects/p/databases/(default)`.
func documentName(_ path: String) -> DocumentName {
    try! DocumentName(DatabaseID(project: "p", database: "(default)"), path)
}

func timestamp(_ seconds: Int64, _ nanoseconds: Int32 = 0) -> Timestamp {
    try! Timestamp(seconds: seconds, nanoseconds: nanoseconds)
}

func geoPoint(_ latitude: Double, _ longitude: Double) -> Value {
    .geoPoint(try! GeoPoint(latitude: latitude, longitude: longitude))
}
