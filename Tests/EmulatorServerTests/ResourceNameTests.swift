@testable import EmulatorServer
import DocumentModel
import FirestoreWire
import Testing

/// Resource names parsed with Google's emulator's messages (measured with probes).
@Suite struct ResourceNameTests {
    private func message(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as FirestoreError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func documentNames() throws {
        let name = try ResourceName.document("projects/p/databases/(default)/documents/c/d")
        #expect(name.path.description == "c/d")
        #expect(name.databaseID == (try DatabaseID(project: "p")))
        let cases = [
            ("", #"Document name "" lacks "projects" at index 0."#),
            ("projects//databases/(default)/documents/c/d", #"Document name "projects//databases/(default)/documents/c/d" lacks a project id at index 9."#),
            ("projects/p/databases/(default)/docs/c/d", #"Document name "projects/p/databases/(default)/docs/c/d" lacks "documents" at index 31."#),
            ("projects/p/databases/(default)/documents/c/d/e", #"Document name "projects/p/databases/(default)/documents/c/d/e" lacks "/" at index 46."#),
            ("projects/p/databases/(default)/documents/c//d", #"Document name "projects/p/databases/(default)/documents/c//d" lacks a resource id at index 43."#),
            ("projects/p/databases/(default)/documents/c/d/", #"Document name "projects/p/databases/(default)/documents/c/d/" has invalid trailing "/"."#),
            ("projects/p/databases/(default)/documents", #"Document name "projects/p/databases/(default)/documents" is invalid: Omit "/documents" when referencing a database (except as the parent of a document)."#),
        ]
        for (text, expected) in cases {
            #expect(message { try ResourceName.document(text) } == expected)
        }
    }

    @Test func databaseAndParentNames() throws {
        #expect(try ResourceName.database("projects/p/databases/other").database == "other")
        #expect(message { try ResourceName.database("projects/p") } == #"Database name "projects/p" lacks "/" at index 10."#)
        #expect(
            message { try ResourceName.database("projects/p/databases/(default)/documents") }
                == #"Database name "projects/p/databases/(default)/documents" has extra characters at index 30."#)
        #expect(try ResourceName.parent("projects/p/databases/d/documents").path == .root)
        #expect(try ResourceName.parent("projects/p/databases/d/documents/a/b").path.description == "a/b")
        #expect(
            message { try ResourceName.parent("projects/p/databases/(default)/documents/c") }
                == #"Document parent name "projects/p/databases/(default)/documents/c" lacks "/" at index 42."#)
    }
}
