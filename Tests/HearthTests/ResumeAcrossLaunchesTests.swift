import DocumentModel
import DocumentStore
import EmulatorServer
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

    @Test func aResumedTargetWhoseCountDiffersStartsAfresh() throws {
        let time = try Timestamp(seconds: 50, nanoseconds: 0)
        let stale = try ["users/a", "users/b"].map {
            Document(name: try DocumentName(TestDatabase.database, $0), fields: [:], createTime: time, updateTime: time)
        }
        let model = DocumentModel.Query(
            database: TestDatabase.database, parent: .root, structured: StructuredQuery(from: CollectionSelector(collectionID: "users")))
        var state = RemoteListenState(target: .query(model), resume: WatchResume(resumeToken: [1], documents: stale))
        _ = state.startStream(in: TestDatabase.database)
        var filter = Google_Firestore_V1_ListenResponse()
        filter.filter.targetID = RemoteListenState.targetID
        filter.filter.count = 1
        #expect(throws: ExistenceFilterMismatch.self) { try state.apply(filter) }
        let again = state.startStream(in: TestDatabase.database)
        #expect(again.addTarget.resumeToken.isEmpty, "the next stream starts without the token")
        #expect(try state.apply(filter) == nil, "a fresh stream's filter is not checked against kept documents")
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

    /// The server's data folder is replaced while the app is away (a fresh emulator at the same
    /// address): the kept token means nothing there, and the listener must not go on showing
    /// the old server's documents.
    @Test func aResumedListenerOnAFreshServerShowsOnlyItsDocuments() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-fresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = FirestoreSettings()
        settings.cacheSettings = PersistentCacheSettings(path: root.appendingPathComponent("cache").path)
        var configuration = StoreConfiguration()
        configuration.garbageCollectionIntervalSeconds = nil

        let oldStore = try DocumentStore(path: root.appendingPathComponent("old").path, configuration: configuration)
        let oldServer = EmulatorServer(store: oldStore, configuration: EmulatorServerConfiguration(port: 0))
        let oldRun = Task { try await oldServer.run() }
        let address = try await oldServer.listeningAddress
        let first = try Firestore.remote(host: address.host, port: address.port, projectID: TestDatabase.project, settings: settings)
        try await first.document("users/a").setData(["age": 30])
        try await first.document("users/b").setData(["age": 40])
        #expect(ids(try await current(first.collection("users"))) == ["a", "b"])
        await first.terminate()
        oldServer.beginGracefulShutdown()
        try await oldRun.value
        try oldStore.close()

        let newStore = try DocumentStore(path: root.appendingPathComponent("new").path, configuration: configuration)
        defer { try? newStore.close() }
        _ = try newStore.commit([.set(try DocumentName(TestDatabase.database, "users/c"), fields: ["age": 50])])
        let newServer = EmulatorServer(store: newStore, configuration: EmulatorServerConfiguration(port: address.port))
        let newRun = Task { try await newServer.run() }
        _ = try await newServer.listeningAddress
        let second = try Firestore.remote(host: address.host, port: address.port, projectID: TestDatabase.project, settings: settings)
        #expect(ids(try await current(second.collection("users"))) == ["c"])
        await second.terminate()
        newServer.beginGracefulShutdown()
        try await newRun.value
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
