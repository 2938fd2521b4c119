import DocumentModel
import FirestoreProto
import FirestoreWire
import Foundation
import GRPCCore
import Testing

@testable import EmulatorServer

/// The `Listen` stream against a live server, one protocol case per test: the sequences are
/// those Google's emulator sends (ADD, documents, CURRENT, the global NO_CHANGE), with
/// incremental changes (DocumentChange, DocumentDelete, DocumentRemove) as production sends.
@Suite struct GRPCListenTests {
    private let owner = TestServer.owner

    @Test func documentTargetSendsItsDocumentsThenCurrentAndAConsistentPoint() async throws {
        try await TestServer.run { server in
            let written = try await server.grpc.commit(
                Proto.commit([Proto.update("users/alice", ["n": 1])]), metadata: owner)
            try await server.listen { call in
                call.send(Watch.documents(1, ["users/alice", "users/bob"]))
                let initial = try await call.responses(through: Watch.isConsistentPoint)
                let described = initial.map(Watch.describe)
                #expect(described.first == "ADD [1]")
                #expect(Set(described[1...2]) == ["CHANGE users/alice [1]", "DELETE users/bob [1]"])
                #expect(described.suffix(2) == ["CURRENT [1]", "NO_CHANGE []"])
                let current = initial[3].targetChange
                #expect(current.readTime == written.commitTime)
                #expect(ListenResumeToken.decode(current.resumeToken) != nil)
                #expect(initial[4].targetChange.readTime == written.commitTime)
                #expect(initial[4].targetChange.resumeToken == current.resumeToken)
                #expect(
                    initial.first { $0.documentChange.document.name.hasSuffix("alice") }?.documentChange.document
                        .fields["n"]
                        == Value.integer(1).proto)
            }
        }
    }

    @Test func documentTargetStreamsModificationsAndDeletes() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(Proto.commit([Proto.update("users/alice", ["n": 1])]), metadata: owner)
            try await server.listen { call in
                call.send(Watch.documents(7, ["users/alice"]))
                _ = try await call.responses(through: Watch.isConsistentPoint)

                let modified = try await server.grpc.commit(
                    Proto.commit([Proto.update("users/alice", ["n": 2])]), metadata: owner)
                let change = try await call.responses(through: Watch.isConsistentPoint)
                #expect(change.map(Watch.describe) == ["CHANGE users/alice [7]", "NO_CHANGE []"])
                #expect(change[0].documentChange.document.fields["n"] == Value.integer(2).proto)
                #expect(change[1].targetChange.readTime == modified.commitTime)

                let deleted = try await server.grpc.commit(Proto.commit([Proto.delete("users/alice")]), metadata: owner)
                let delete = try await call.responses(through: Watch.isConsistentPoint)
                #expect(delete.map(Watch.describe) == ["DELETE users/alice [7]", "NO_CHANGE []"])
                #expect(delete[0].documentDelete.readTime == deleted.commitTime)
                #expect(delete[1].targetChange.readTime == deleted.commitTime)
            }
        }
    }

    @Test func queryTargetSendsChangesDeletesAndRemovals() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(
                Proto.commit([
                    Proto.update("cities/a", ["big": true]), Proto.update("cities/b", ["big": true]),
                    Proto.update("cities/c", ["big": false]),
                ]), metadata: owner)
            try await server.listen { call in
                call.send(Watch.query(2, "cities", whereEqual: ("big", true)))
                let initial = try await call.responses(through: Watch.isConsistentPoint)
                #expect(
                    initial.map(Watch.describe) == [
                        "ADD [2]", "CHANGE cities/a [2]", "CHANGE cities/b [2]", "CURRENT [2]", "NO_CHANGE []",
                    ])

                // Still matching: a change. No longer matching: a remove. Deleted: a delete.
                _ = try await server.grpc.commit(
                    Proto.commit([Proto.update("cities/a", ["big": true, "n": 1])]), metadata: owner)
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                        == ["CHANGE cities/a [2]", "NO_CHANGE []"])
                _ = try await server.grpc.commit(
                    Proto.commit([Proto.update("cities/a", ["big": false])]), metadata: owner)
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                        == ["REMOVE-DOC cities/a [2]", "NO_CHANGE []"])
                _ = try await server.grpc.commit(Proto.commit([Proto.delete("cities/b")]), metadata: owner)
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                        == ["DELETE cities/b [2]", "NO_CHANGE []"])
                _ = try await server.grpc.commit(
                    Proto.commit([Proto.update("cities/c", ["big": true])]), metadata: owner)
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                        == ["CHANGE cities/c [2]", "NO_CHANGE []"])
            }
        }
    }

    @Test func collectionGroupTargetSeesEveryCollectionOfTheGroup() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(
                Proto.commit([
                    Proto.update("posts/p1", ["n": 1]), Proto.update("users/u1/posts/p2", ["n": 2]),
                    Proto.update("users/u1/comments/c1", ["n": 3]),
                ]), metadata: owner)
            try await server.listen { call in
                call.send(Watch.query(3, "posts", allDescendants: true))
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe) == [
                        "ADD [3]", "CHANGE posts/p1 [3]", "CHANGE users/u1/posts/p2 [3]", "CURRENT [3]", "NO_CHANGE []",
                    ])
                _ = try await server.grpc.commit(
                    Proto.commit([Proto.update("a/b/c/d/posts/p3", ["n": 4]), Proto.update("a/b/comments/x", ["n": 5])]
                    ),
                    metadata: owner)
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                        == ["CHANGE a/b/c/d/posts/p3 [3]", "NO_CHANGE []"])
            }
        }
    }

    @Test func severalTargetsShareOneStreamAndCanBeRemoved() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(Proto.commit([Proto.update("users/alice", ["n": 1])]), metadata: owner)
            try await server.listen { call in
                call.send(Watch.documents(1, ["users/alice"]))
                _ = try await call.responses(through: Watch.isConsistentPoint)
                call.send(Watch.query(2, "users"))
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe) == [
                        "ADD [2]", "CHANGE users/alice [2]", "CURRENT [2]", "NO_CHANGE []",
                    ])

                // One commit seen by both targets: each gets its change and its own resume token.
                let commit = try await server.grpc.commit(
                    Proto.commit([Proto.update("users/alice", ["n": 2])]), metadata: owner)
                var seen: [String] = []
                var last = Google_Firestore_V1_ListenResponse()
                while !(seen.contains("CHANGE users/alice [1]") && seen.contains("CHANGE users/alice [2]")) {
                    let batch = try await call.responses(through: Watch.isConsistentPoint)
                    seen += batch.map(Watch.describe)
                    last = batch.last!
                }
                #expect(seen.filter { $0.hasPrefix("CHANGE") }.count == 2)
                #expect(seen.filter { $0 == "NO_CHANGE [1]" || $0 == "NO_CHANGE [2]" }.count == 2)
                #expect(last.targetChange.readTime == commit.commitTime)

                call.send(Watch.remove(1))
                #expect(try await call.next().map(Watch.describe) == "REMOVE [1]")
                _ = try await server.grpc.commit(Proto.commit([Proto.update("users/alice", ["n": 3])]), metadata: owner)
                let after = try await call.responses(through: Watch.isConsistentPoint)
                #expect(after.map(Watch.describe) == ["CHANGE users/alice [2]", "NO_CHANGE []"])
                #expect(ListenResumeToken.decode(after[1].targetChange.resumeToken) != nil)
            }
        }
    }

    @Test func resumeTokenResumesWithTheChangesSinceAndAnExistenceFilter() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(
                Proto.commit([
                    Proto.update("cities/a", ["big": true]), Proto.update("cities/b", ["big": true]),
                    Proto.update("cities/x", ["big": true]),
                ]), metadata: owner)
            let token = try await server.listen { call in
                call.send(Watch.query(4, "cities", whereEqual: ("big", true)))
                return try await call.responses(through: Watch.isConsistentPoint).last!.targetChange.resumeToken
            }
            _ = try await server.grpc.commit(
                Proto.commit([
                    Proto.update("cities/a", ["big": false]), Proto.delete("cities/b"),
                    Proto.update("cities/c", ["big": true]),
                ]), metadata: owner)
            try await server.listen { call in
                call.send(Watch.query(4, "cities", whereEqual: ("big", true), resumeToken: token))
                let resumed = try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                #expect(
                    resumed == [
                        "ADD [4]", "CHANGE cities/c [4]", "REMOVE-DOC cities/a [4]", "DELETE cities/b [4]",
                        "FILTER 2 [4]",
                        "CURRENT [4]", "NO_CHANGE []",
                    ])
            }
        }
    }

    @Test func readTimeResumesLikeAToken() async throws {
        try await TestServer.run { server in
            let first = try await server.grpc.commit(
                Proto.commit([Proto.update("cities/a", ["n": 1]), Proto.update("cities/b", ["n": 1])]), metadata: owner)
            _ = try await server.grpc.commit(Proto.commit([Proto.update("cities/b", ["n": 2])]), metadata: owner)
            try await server.listen { call in
                call.send(Watch.query(5, "cities", readTime: try Timestamp(proto: first.commitTime)))
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe) == [
                        "ADD [5]", "CHANGE cities/b [5]", "FILTER 2 [5]", "CURRENT [5]", "NO_CHANGE []",
                    ])
            }
        }
    }

    @Test func unknownResumeTokenResetsTheTarget() async throws {
        try await TestServer.run { server in
            _ = try await server.grpc.commit(Proto.commit([Proto.update("cities/a", ["n": 1])]), metadata: owner)
            try await server.listen { call in
                call.send(Watch.query(6, "cities", resumeToken: Data("not a token of ours".utf8)))
                let reset = try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                #expect(reset == ["ADD [6]", "RESET [6]", "CHANGE cities/a [6]", "CURRENT [6]", "NO_CHANGE []"])
            }
        }
    }

    @Test func invalidTargetIsRemovedWithACauseAndTheStreamGoesOn() async throws {
        try await TestServer.run { server in
            try await server.listen { call in
                call.send(Watch.query(1, "cities", limit: -1))
                let removed = try await call.responses(through: Watch.endsTargetSetUp)
                #expect(removed.map(Watch.describe) == ["ADD [1]", "REMOVE [1] cause 3"])
                #expect(removed[1].targetChange.cause.message.isEmpty == false)

                call.send(Watch.documents(2, ["not-a-document"]))
                let invalidName = try await call.responses(through: Watch.endsTargetSetUp).map(Watch.describe)
                #expect(invalidName == ["ADD [2]", "REMOVE [2] cause 3"])

                call.send(Watch.documents(3, ["cities/a"]))
                #expect(
                    try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe) == [
                        "ADD [3]", "DELETE cities/a [3]", "CURRENT [3]", "NO_CHANGE []",
                    ])
            }
        }
    }

    @Test func targetTheRulesDenyIsRemovedWithPermissionDenied() async throws {
        let rules = RulesFile(
            source: """
                rules_version = '2';
                service cloud.firestore {
                  match /databases/{database}/documents {
                    match /open/{doc} { allow read: if true; }
                  }
                }
                """)
        try await TestServer.run(rules: rules) { server in
            try await server.listen(metadata: [:]) { call in
                call.send(Watch.query(1, "closed"))
                let denied = try await call.responses(through: Watch.endsTargetSetUp).map(Watch.describe)
                #expect(denied == ["ADD [1]", "REMOVE [1] cause 7"])
                call.send(Watch.documents(2, ["closed/a"]))
                let deniedDocument = try await call.responses(through: Watch.endsTargetSetUp).map(Watch.describe)
                #expect(deniedDocument == ["ADD [2]", "REMOVE [2] cause 7"])
                call.send(Watch.query(3, "open"))
                let allowed = try await call.responses(through: Watch.endsTargetSetUp).map(Watch.describe)
                #expect(allowed == ["ADD [3]", "CURRENT [3]", "NO_CHANGE []"])
            }
        }
    }

    @Test func targetIDZeroGetsAnIDFromTheServer() async throws {
        try await TestServer.run { server in
            try await server.listen { call in
                call.send(Watch.query(0, "cities"))
                let first = try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                #expect(first == ["ADD [1]", "CURRENT [1]", "NO_CHANGE []"])
                call.send(Watch.query(0, "towns"))
                let second = try await call.responses(through: Watch.isConsistentPoint).map(Watch.describe)
                #expect(second == ["ADD [2]", "CURRENT [2]", "NO_CHANGE []"])
            }
        }
    }

    @Test func malformedRequestsEndTheStreamWithInvalidArgument() async throws {
        try await TestServer.run { server in
            let duplicate = await rpcError {
                try await server.listen { call in
                    call.send(Watch.query(1, "cities"))
                    call.send(Watch.query(1, "towns"))
                    while try await call.next() != nil {}
                }
            }
            #expect(duplicate?.code == .invalidArgument)
            #expect(duplicate?.message.contains("Target ID 1") == true)

            let empty = await rpcError {
                try await server.listen { call in
                    var request = Google_Firestore_V1_ListenRequest()
                    request.database = TestServer.database
                    call.send(request)
                    while try await call.next() != nil {}
                }
            }
            #expect(empty?.code == .invalidArgument)

            let otherDatabase = await rpcError {
                try await server.listen { call in
                    call.send(Watch.query(1, "cities"))
                    var request = Watch.query(2, "towns")
                    request.database = "projects/demo-test/databases/other"
                    call.send(request)
                    while try await call.next() != nil {}
                }
            }
            #expect(otherDatabase?.code == .invalidArgument)
        }
    }

    @Test func closingTheStreamReleasesItsListenersAndLogsOneEntry() async throws {
        try await TestServer.run { server in
            try await server.listen { call in
                call.send(Watch.query(1, "cities"))
                call.send(Watch.documents(2, ["cities/a", "cities/b"]))
                var current = 0
                while current < 2 {
                    if try await call.next()?.targetChange.targetChangeType == .current { current += 1 }
                }
                #expect(server.server.store.listenerCount == 3)
            }
            let entries = try await server.waitForLogEntries("Listen", count: 1)
            #expect(server.server.store.listenerCount == 0)
            #expect(entries.count == 1)
            #expect(entries[0].path == TestServer.database)
            #expect(entries[0].caller == "owner")
        }
    }

    @Test func serverShutdownEndsOpenStreamsWithUnavailable() async throws {
        try await TestServer.run { server in
            let failure = await rpcError {
                try await server.listen { call in
                    call.send(Watch.query(1, "cities"))
                    _ = try await call.responses(through: Watch.isConsistentPoint)
                    server.server.beginGracefulShutdown()
                    while try await call.next() != nil {}
                }
            }
            #expect(failure?.code == .unavailable)
            #expect(server.server.store.listenerCount == 0)
        }
    }
}
