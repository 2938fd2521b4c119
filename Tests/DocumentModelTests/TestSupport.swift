import DocumentModel
import Testing

/// Runs `body` and expects it to throw a `FirestoreError` with `code` whose message contains
/// `text` (when given); `context` goes into failure messages. Returns the error for further checks.
@discardableResult
func expectFirestoreError(
    _ code: FirestoreError.Code,
    mentioning text: String? = nil,
    context: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> FirestoreError? {
    do {
        try body()
    } catch let error as FirestoreError {
        #expect(error.code == code, "\(context()) wrong code in \(error)", sourceLocation: sourceLocation)
        if let text {
            #expect(
                error.message.contains(text), "\(context()) \(error) does not mention \(text.debugDescription)",
                sourceLocation: sourceLocation)
        }
        return error
    } catch {
        Issue.record("\(context()) expected a FirestoreError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    Issue.record("\(context()) expected a FirestoreError \(code), nothing was thrown", sourceLocation: sourceLocation)
    return nil
}

/// A document name in the default test database.
func documentName(_ path: String, project: String = "p", database: String = "(default)") -> DocumentName {
    try! DocumentName(DatabaseID(project: project, database: database), path)
}

/// A reference value to `path` in the default test database.
func reference(_ path: String, project: String = "p") -> Value { .reference(documentName(path, project: project)) }

func timestamp(_ seconds: Int64, _ nanoseconds: Int32 = 0) -> Timestamp {
    try! Timestamp(seconds: seconds, nanoseconds: nanoseconds)
}

func geoPoint(_ latitude: Double, _ longitude: Double) -> Value {
    .geoPoint(try! GeoPoint(latitude: latitude, longitude: longitude))
}
