import DocumentModel
import FirestoreProto
import FirestoreWire
import Testing

@testable import EmulatorServer

/// A Listen stream's targets have no task of their own: each store listener tells the session
/// when it has something (its first snapshot, commits, its end) and the session takes it then.
/// These cases race that hand-over; a lost wake-up would leave a target behind for good, which
/// the time limit catches (3 minutes: the whole suite on a loaded 2-core machine took one
/// case past 1 minute without any lost wake-up).
@Suite struct GRPCListenWakeTests {
    private let owner = TestServer.owner

    @Test("Commits published before and while targets take their first snapshot are all followed", .timeLimit(.minutes(3)))
    func commitsRacingTheFirstSnapshot() async throws {
        try await TestServer.run { server in
            try await server.listen { call in
                call.send(Watch.documents(1, ["race/doc"]))
                call.send(Watch.query(2, "race"))
                for n in 1...30 {
                    _ = try await server.grpc.commit(
                        Proto.commit([Proto.update("race/doc", ["n": .integer(Int64(n))])]), metadata: owner)
                }
                var latest: [Int32: Google_Firestore_V1_Value] = [:]
                var current: Set<Int32> = []
                let last = Value.integer(30).proto
                while latest[1] != last || latest[2] != last || current.count < 2 {
                    guard let response = try await call.next() else { throw StreamEnded(received: []) }
                    switch response.responseType {
                    case .documentChange(let change):
                        for id in change.targetIds { latest[id] = change.document.fields["n"] }
                    case .targetChange(let change) where change.targetChangeType == .current:
                        current.formUnion(change.targetIds)
                    default:
                        continue
                    }
                }
                // Nothing more is due: one more commit arrives alone, for both targets.
                _ = try await server.grpc.commit(
                    Proto.commit([Proto.update("race/doc", ["n": 31])]), metadata: owner)
                var changed: Set<Int32> = []
                while changed.count < 2 {
                    let batch = try await call.responses(through: Watch.isConsistentPoint)
                    for response in batch where response.documentChange.document.fields["n"] == Value.integer(31).proto {
                        changed.formUnion(response.documentChange.targetIds)
                    }
                    #expect(batch.allSatisfy { $0.documentChange.document.fields["n"] != last })
                }
            }
        }
    }

    @Test("Each target of a stream hears of its own document's commits, however they interleave", .timeLimit(.minutes(3)))
    func manyTargetsOnOneStream() async throws {
        try await TestServer.run { server in
            let count = 40
            try await server.listen { call in
                for index in 0..<count { call.send(Watch.documents(Int32(index + 1), ["many/d\(index)"])) }
                var current: Set<Int32> = []
                while current.count < count {
                    guard let response = try await call.next() else { throw StreamEnded(received: []) }
                    if response.targetChange.targetChangeType == .current { current.formUnion(response.targetChange.targetIds) }
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            _ = try await server.grpc.commit(
                                Proto.commit([Proto.update("many/d\(index)", ["n": .integer(Int64(index))])]),
                                metadata: TestServer.owner)
                        }
                    }
                    try await group.waitForAll()
                }
                var changed: [Int32: String] = [:]
                while changed.count < count {
                    guard let response = try await call.next() else { throw StreamEnded(received: []) }
                    for id in response.documentChange.targetIds {
                        changed[id] = Watch.shortName(response.documentChange.document.name)
                    }
                }
                #expect(changed.allSatisfy { id, name in name == "many/d\(id - 1)" })
            }
            _ = try await server.waitForLogEntries("Listen", count: 1)
            #expect(server.server.store.listenerCount == 0)
        }
    }
}
