package import DocumentModel

/// Parses the resource names of requests, with Google's emulator's messages:
/// `Document name "foo" lacks "projects" at index 0.`
///
/// - Database: `projects/{project}/databases/{database}`.
/// - Document: `projects/{project}/databases/{database}/documents/{path}`, an even number of ids.
/// - Parent (of a collection): the database's `.../documents`, or a document name.
package enum ResourceName {
    /// A database name.
    package static func database(_ text: String) throws -> DatabaseID {
        var scanner = Scanner(text, kind: "Database name")
        let database = try scanner.databaseID()
        guard scanner.isAtEnd else { throw scanner.failure("has extra characters") }
        return database
    }

    /// A document name.
    package static func document(_ text: String) throws -> DocumentName {
        var scanner = Scanner(text, kind: "Document name")
        let database = try scanner.databaseID()
        try scanner.expect("/")
        try scanner.expect("documents")
        guard !scanner.isAtEnd else {
            throw scanner.invalid(
                "Omit \"/documents\" when referencing a database (except as the parent of a document).")
        }
        let path = try scanner.path(requireDocument: true)
        return try DocumentName(database, path)
    }

    /// The parent of a collection: the database root or a document.
    package static func parent(_ text: String) throws -> (database: DatabaseID, path: ResourcePath) {
        var scanner = Scanner(text, kind: "Document parent name")
        let database = try scanner.databaseID()
        try scanner.expect("/")
        try scanner.expect("documents")
        if scanner.isAtEnd { return (database, .root) }
        return (database, try scanner.path(requireDocument: true))
    }

    /// Reads a name left to right, tracking the index (in UTF-16 code units, as Google's
    /// emulator counts) for messages.
    private struct Scanner {
        let text: String
        let kind: String
        private var rest: Substring.UnicodeScalarView
        private var index = 0

        init(_ text: String, kind: String) {
            self.text = text
            self.kind = kind
            rest = Substring(text).unicodeScalars
        }

        var isAtEnd: Bool { rest.isEmpty }

        func failure(_ problem: String) -> FirestoreError {
            FirestoreError.invalidArgument("\(kind) \"\(text)\" \(problem) at index \(index).")
        }

        func invalid(_ reason: String) -> FirestoreError {
            FirestoreError.invalidArgument("\(kind) \"\(text)\" is invalid: \(reason)")
        }

        mutating func expect(_ literal: String) throws {
            guard rest.starts(with: literal.unicodeScalars) else { throw failure("lacks \"\(literal)\"") }
            advance(by: literal.unicodeScalars.count)
        }

        /// An id up to the next `/` or the end; `what` names it in the message when it is empty.
        mutating func id(_ what: String) throws -> String {
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            let id = String(rest[..<end])
            guard !id.isEmpty else { throw failure("lacks \(what)") }
            advance(by: id.unicodeScalars.count)
            return id
        }

        mutating func databaseID() throws -> DatabaseID {
            try expect("projects")
            try expect("/")
            let project = try id("a project id")
            try expect("/")
            try expect("databases")
            try expect("/")
            let database = try id("a database id")
            return try DatabaseID(project: project, database: database)
        }

        /// `/id/id...` to the end: collection and document ids, an even number of them.
        mutating func path(requireDocument: Bool) throws -> ResourcePath {
            var segments: [String] = []
            while !isAtEnd {
                try expect("/")
                if isAtEnd { throw FirestoreError.invalidArgument("\(kind) \"\(text)\" has invalid trailing \"/\".") }
                segments.append(try id("a resource id"))
            }
            if requireDocument && segments.count % 2 == 1 { throw failure("lacks \"/\"") }
            return try ResourcePath(segments: segments)
        }

        private mutating func advance(by count: Int) {
            for scalar in rest.prefix(count) { index += scalar.utf16.count }
            rest = rest.dropFirst(count)
        }
    }
}
