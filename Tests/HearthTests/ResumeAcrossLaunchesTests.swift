import DocumentModel
import FirestoreProto
import Foundation
@testable import Hearth
import HearthPersistence
import Testing

/// A listener on a persistent cache resumes its target with the token an earlier process
/// kept, and still shows exactly the server's results when the target changed meanwhile.
@Suite("Resume tokens across launches")
struct ResumeAcrossLaunchesTests {
    @Test func aResumedStreamStartsFromTheRecordedTokenAndDocuments() throws {
        let time = try Timestamp(seconds: 50, nanoseconds: 0)
        let kept = Document(
            name: try DocumentName(TestDatabase.database, "users/kept"), fields: ["age": .integer(30)],
            createTime: time, updateTime: time)
        let target = ListenTarget.document(kept.name)
        var state = RemoteListenState(
            target: target, resume: WatchResume(resumeToken: [7, 7, 7], documents: [kept]))

        let request = state.startStream(in: TestDatabase.database)
        #expect(Array(request.addTarget.resumeToken) == [7, 7, 7], "the first stream asks for changes since the token")

        // The server has nothing new: CURRENT, then a consistent point.
        var current = Google_Firestore_V1_TargetChange()
        current.targetChangeType = .current
        current.targetIds = [RemoteListenState.targetID]
        #expect(try state.apply(response(current)) == nil)
        var consistent = Google_Firestore_V1_TargetChange()
        consistent.targetChangeType = .noChange
        consistent.readTime = .init(seconds: 100, nanos: 0)
        consistent.resumeToken = Data([8])
        let snapshot = try #require(try state.apply(response(consistent)))
        #expect(snapshot.documents.map(\.name) == [kept.name], "the recorded document is still in the target")
        #expect(snapshot.resumeToken == [8])
    }

    @Test func aRecordKeepsItsTokenAndMembers() throws {
        let members = try ["users/a", "users/b c", "users/é"].map { try DocumentName(TestDatabase.database, $0) }
        let record = TargetRecord(
            resumeToken: [0, 1, 255], snapshotVersion: try Timestamp(seconds: 5, nanoseconds: 6), members: members)
        let decoded = try LocalStoreLayout.decodeTarget(LocalStoreLayout.encode(record), key: "k")
        #expect(decoded == record)
        var damaged = LocalStoreLayout.encode(record)
        damaged.removeLast()
        #expect(throws: FirestoreError.self) { try LocalStoreLayout.decodeTarget(damaged, key: "k") }
    }

    @Test func aQueryListenerOnTheNextLaunchShowsWhatChangedWhileItWasGone() async throws {
        try await TestDatabase.with(.remote) { test in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-resume-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            var settings = FirestoreSettings()
            settings.cacheSettings = PersistentCacheSettings(path: folder.path)
            let address = try #require(test.serverAddress)
            for (id, age) in [("stays", 30), ("changes", 40), ("leaves", 50), ("deleted", 60), ("young", 10)] {
                try await test.db.document("users/\(id)").setData(["age": age])
            }

            let first = try Firestore.remote(
                host: address.host, port: address.port, projectID: TestDatabase.project, settings: settings)
            let adults = first.collection("users").whereField("age", isGreaterThanOrEqualTo: 18)
            let firstSnapshot = try await current(adults)
            #expect(ids(firstSnapshot) == ["changes", "deleted", "leaves", "stays"])
            await first.terminate()

            // While no instance runs: a member changes, one leaves the query, one is deleted,
            // one joins.
            try await test.db.document("users/changes").updateData(["age": 41])
            try await test.db.document("users/leaves").updateData(["age": 5])
            try await test.db.document("users/deleted").delete()
            try await test.db.document("users/young").updateData(["age": 18])

            let key = "query:" + (try adults.state.modelQuery(in: TestDatabase.database)).targetKey
            let record = try recordedTarget(folder.path, key: key)
            #expect(!record.resumeToken.isEmpty, "the first launch kept a resume token")
            #expect(record.members.map(\.path.description).sorted() == [
                "users/changes", "users/deleted", "users/leaves", "users/stays",
            ])

            let second = try Firestore.remote(
                host: address.host, port: address.port, projectID: TestDatabase.project, settings: settings)
            let secondSnapshot = try await current(second.collection("users").whereField("age", isGreaterThanOrEqualTo: 18))
            #expect(ids(secondSnapshot) == ["changes", "stays", "young"])
            #expect(secondSnapshot.documents.first { $0.documentID == "changes" }?.get("age") as? Int == 41)
            let server = try await test.db.collection("users").whereField("age", isGreaterThanOrEqualTo: 18).getDocuments()
            #expect(ids(secondSnapshot) == ids(server))
            await second.terminate()
        }
    }

    /// The first snapshot of `query` that is current on the server.
    private func current(_ query: Hearth.Query) async throws -> QuerySnapshot {
        for try await snapshot in query.snapshots(includeMetadataChanges: true) where !snapshot.metadata.isFromCache {
            return snapshot
        }
        throw FirestoreError(.unavailable, "the listener ended")
    }

    private func ids(_ snapshot: QuerySnapshot) -> [String] {
        snapshot.documents.map(\.documentID).sorted()
    }

    /// The record of the target `key` in the cache at `path` (the cache must be closed).
    private func recordedTarget(_ path: String, key: String) throws -> TargetRecord {
        let store = try PersistentLocalStore(path: path, sizeBytes: -1)
        defer { try? store.close() }
        return try #require(try store.target(key))
    }

    private func response(_ change: Google_Firestore_V1_TargetChange) -> Google_Firestore_V1_ListenResponse {
        var response = Google_Firestore_V1_ListenResponse()
        response.targetChange = change
        return response
    }
}
