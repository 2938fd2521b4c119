import DocumentModel
import Testing

@Suite struct ResourcePathTests {
    @Test func parsesSegmentsAndKinds() throws {
        let document = try ResourcePath("users/alice")
        #expect(document.segments == ["users", "alice"] && document.isDocument && !document.isCollection)
        let collection = try ResourcePath("users/alice/posts")
        #expect(collection.isCollection && !collection.isDocument && collection.lastSegment == "posts")
        #expect(try ResourcePath("") == .root)
        #expect(ResourcePath.root.segments.isEmpty && !ResourcePath.root.isDocument && !ResourcePath.root.isCollection)
        #expect(document.description == "users/alice")
        #expect(try ResourcePath("a\0b/c d/(x)/é").segments == ["a\0b", "c d", "(x)", "é"])
    }

    @Test(arguments: [
        ("/users", "empty"), ("users/", "empty"), ("users//alice", "empty"), (".", "\".\""), ("users/..", "\"..\""),
        ("a/./b", "\".\""), ("__x__", "reserved"), ("users/__id__", "reserved"), ("users/_____", "reserved"),
        ("c/__idx__", "reserved"), ("__id5__", "reserved"), ("c/d/__id7__/e", "reserved"),
        ("c/__id99999999999999999999__", "64 bit"),
    ])
    func rejectsInvalidPaths(text: String, reason: String) {
        expectFirestoreError(.invalidArgument, mentioning: reason, context: text) { _ = try ResourcePath(text) }
    }

    @Test func acceptsNamesThatOnlyLookReserved() throws {
        for id in ["__", "___", "____", "__a", "a__", "_a_", "...", "a.b", "..a", "__x_"] {
            #expect(try ResourcePath(segments: [id, id]).lastSegment == id)
            #expect(!ResourcePath.isReserved(id), "\(id)")
        }
        #expect(
            ResourcePath.isReserved("__x__") && ResourcePath.isReserved("_____")
                && ResourcePath.isReserved("__\u{1F600}__"))
        // Numeric document ids are the one exception to the reserved form.
        #expect(try ResourcePath("c/__id123__/d/__id-9223372036854775808__").segments.count == 4)
    }

    @Test func pathsHaveAtMost200Segments() throws {
        #expect(
            try ResourcePath(segments: Array(repeating: "a", count: ResourcePath.maxSegments)).segments.count == 200)
        expectFirestoreError(.invalidArgument, mentioning: "too long") {
            _ = try ResourcePath(segments: Array(repeating: "a", count: 201))
        }
    }

    @Test func idLengthIsCountedInBytes() throws {
        #expect(try ResourcePath(segments: ["c", String(repeating: "a", count: 1500)]).segments[1].utf8.count == 1500)
        #expect(try ResourcePath(segments: ["c", String(repeating: "é", count: 750)]).segments[1].utf8.count == 1500)
        expectFirestoreError(.invalidArgument, mentioning: "1501") {
            _ = try ResourcePath(segments: ["c", String(repeating: "a", count: 1501)])
        }
        // 751 characters, 1,501 bytes.
        expectFirestoreError(.invalidArgument, mentioning: "1501") {
            _ = try ResourcePath(segments: ["c", String(repeating: "é", count: 750) + "a"])
        }
    }

    @Test func segmentsInitializerValidatesEachID() {
        expectFirestoreError(.invalidArgument, mentioning: "empty") { _ = try ResourcePath(segments: ["users", ""]) }
        expectFirestoreError(.invalidArgument, mentioning: "must not contain") {
            _ = try ResourcePath(segments: ["a/b"])
        }
        expectFirestoreError(.invalidArgument, mentioning: "reserved") { _ = try ResourcePath(segments: ["__a__"]) }
        expectFirestoreError(.invalidArgument, mentioning: "\"..\"") { try ResourcePath.validate(id: "..") }
    }

    @Test func navigation() throws {
        let path = try ResourcePath("users/alice/posts/1")
        #expect(path.parent == (try ResourcePath("users/alice/posts")))
        #expect(ResourcePath.root.parent == nil)
        #expect(try ResourcePath("users").parent == .root)
        #expect(try path.appending("comments").description == "users/alice/posts/1/comments")
        expectFirestoreError(.invalidArgument) { _ = try path.appending("a/b") }
        expectFirestoreError(.invalidArgument) { _ = try path.appending("") }
        let (users, user, users2) = (try ResourcePath("users"), try ResourcePath("user"), try ResourcePath("users2/x"))
        #expect(path.hasPrefix(users) && path.hasPrefix(.root) && path.hasPrefix(path))
        #expect(!path.hasPrefix(user) && !users2.hasPrefix(users))
    }

    @Test func equalityAndOrderAreByBytesSegmentWise() throws {
        #expect(try ResourcePath("a/é") != ResourcePath("a/e\u{301}"))
        #expect(try Set([ResourcePath("a/é"), ResourcePath("a/e\u{301}"), ResourcePath("a/é")]).count == 2)
        // Raw strings order "a-b/c" before "a/b"; segments put "a" first.
        #expect(try ResourcePath("a/b") < ResourcePath("a-b/c"))
        #expect(try ResourcePath("a/b") < ResourcePath("a/b/c"))
        #expect(try ResourcePath("a/\u{FFFF}") < ResourcePath("a/\u{1F600}"))
        #expect(!(try ResourcePath("a/b") < ResourcePath("a/b")))
    }
}

@Suite struct DocumentNameTests {
    let database = try! DatabaseID(project: "demo-app")

    @Test func requiresADocumentPath() throws {
        let name = try DocumentName(database, "users/alice/posts/p1")
        #expect(name.documentID == "p1" && name.collectionID == "posts")
        #expect(name.collectionPath == (try ResourcePath("users/alice/posts")))
        expectFirestoreError(.invalidArgument, mentioning: "users/alice/posts") {
            _ = try DocumentName(database, "users/alice/posts")
        }
        expectFirestoreError(.invalidArgument, mentioning: "not a document") { _ = try DocumentName(database, "users") }
        expectFirestoreError(.invalidArgument, mentioning: "not a document") {
            _ = try DocumentName(database, ResourcePath.root)
        }
    }

    @Test func resourceNameRoundTrips() throws {
        let text = "projects/demo-app/databases/(default)/documents/users/alice"
        let name = try DocumentName(resourceName: text)
        #expect(name.databaseID.project == "demo-app" && name.databaseID.database == "(default)")
        #expect(name.path == (try ResourcePath("users/alice")))
        #expect(name.resourceName == text && name.description == text)
        let named = try DocumentName(resourceName: "projects/p/databases/db-2/documents/a/é/b/\u{1F600}")
        #expect(try DocumentName(resourceName: named.resourceName) == named)
        #expect(named.databaseID.database == "db-2")
    }

    @Test(arguments: [
        "", "users/alice", "projects/p", "projects/p/databases/d", "projects/p/databases/d/documents",
        "projects/p/databases/d/documents/", "projects/p/databases/d/documents/users",
        "project/p/databases/d/documents/a/b", "projects//databases/d/documents/a/b",
        "projects/p/databases//documents/a/b", "projects/p/databases/d/docs/a/b",
        "projects/p/databases/d/documents/a//b", "projects/p/databases/d/documents/a/b/",
        "/projects/p/databases/d/documents/a/b", "projects/p/databases/d/documents/a/__b__",
    ])
    func rejectsInvalidResourceNames(text: String) {
        expectFirestoreError(.invalidArgument, context: text) { _ = try DocumentName(resourceName: text) }
    }

    @Test func orderIsDatabaseThenPath() throws {
        let names = try [
            "projects/a/databases/(default)/documents/z/z", "projects/a/databases/db/documents/a/a",
            "projects/b/databases/(default)/documents/a/a", "projects/b/databases/(default)/documents/a/a/b/b",
            "projects/b/databases/(default)/documents/a-b/a",
        ].map { try DocumentName(resourceName: $0) }
        #expect(names.reversed().sorted() == names)
    }
}

@Suite struct DatabaseIDTests {
    @Test func defaultsAndValidation() throws {
        let id = try DatabaseID(project: "p")
        #expect(id.database == "(default)" && id.database == DatabaseID.defaultDatabase)
        #expect(id.resourceName == "projects/p/databases/(default)")
        expectFirestoreError(.invalidArgument, mentioning: "project") { _ = try DatabaseID(project: "") }
        expectFirestoreError(.invalidArgument, mentioning: "a/b") { _ = try DatabaseID(project: "a/b") }
        expectFirestoreError(.invalidArgument, mentioning: "database") {
            _ = try DatabaseID(project: "p", database: "")
        }
    }

    /// Ids compare by bytes like every other Firestore name: canonically equivalent spellings
    /// are different ids, so equality agrees with the byte order and the key encoding.
    @Test func equalityIsByBytes() throws {
        let composed = try DatabaseID(project: "é")
        let decomposed = try DatabaseID(project: "e\u{301}")
        #expect(composed != decomposed)
        #expect(decomposed < composed && !(composed < decomposed))
        #expect(Set([composed, decomposed, composed]).count == 2)
        #expect(try DatabaseID(project: "p", database: "a") < DatabaseID(project: "p", database: "b"))
        #expect(try DatabaseID(project: "a", database: "z") < DatabaseID(project: "b", database: "a"))
    }
}
