import ArgumentParser
import DocumentModel
import FirestoreWire

/// Parsing of the paths and JSON that users type, with Firestore's messages.
enum UserInput {
    /// Runs `body`, turning a `FirestoreError` into a `ValidationError`, which prints the
    /// message and the command's usage.
    static func check(_ body: () throws -> Void) throws {
        do { try body() } catch let error as FirestoreError { throw ValidationError(error.message) }
    }

    /// A document path such as `users/alice`.
    static func documentPath(_ text: String) throws -> ResourcePath {
        let path = try ResourcePath(text)
        guard path.isDocument else {
            throw FirestoreError.invalidArgument(
                "'\(text)' is not a document path: a document path has an even number of segments")
        }
        return path
    }

    /// A collection path such as `users` or `users/alice/posts`.
    static func collectionPath(_ text: String) throws -> ResourcePath {
        let path = try ResourcePath(text)
        guard path.isCollection else {
            throw FirestoreError.invalidArgument(
                "'\(text)' is not a collection path: a collection path has an odd number of segments")
        }
        return path
    }

    /// Document fields from REST JSON text: a document object or a bare fields object.
    static func fields(fromJSON utf8: [UInt8]) throws -> MapValue {
        try RESTJSON.decodeDocumentFields(JSONValue(parsing: utf8))
    }
}
