import DocumentModel
import DocumentStore
import Foundation
import Synchronization
import Testing

@Suite("Commits: writes, preconditions and atomicity")
struct CommitTests {
    @Test("create, set, merge, update and delete do what Firestore's operations do")
    func operations() throws {
        let fixture = try StoreFixture()
        let alice = try fixture.name("users/alice")
        try fixture.store.commit([.create(alice, fields: ["email": "a@x.io", "profile": ["age": 30, "city": "Oslo"]])])
        fixture.clock.advance(bySeconds: 1)
        try fixture.store.commit([
            .setMerge(alice, fields: ["profile": ["age": 31]], mask: [try .path("profile.age")])
        ])
        var document = try #require(try fixture.store.document(alice))
        #expect(document.fields == ["email": "a@x.io", "profile": ["age": 31, "city": "Oslo"]])
        try fixture.store.commit([
            .update(alice, fields: ["name": "Alice"], mask: [try .path("name"), try .path("profile.city")])
        ])
        document = try #require(try fixture.store.document(alice))
        #expect(document.fields == ["email": "a@x.io", "name": "Alice", "profile": ["age": 31]])
        try fixture.store.commit([.set(alice, fields: ["only": true])])
        document = try #require(try fixture.store.document(alice))
        #expect(document.fields == ["only": true])
        #expect(document.createTime == StoreFixture.start)
        #expect(document.updateTime > document.createTime)
        try fixture.store.commit([.delete(alice)])
        #expect(try fixture.store.document(alice) == nil)
    }

    @Test("a commit's writes apply in order, and later writes see earlier ones")
    func writesInOrder() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("counters/c")
        let result = try fixture.store.commit([
            .create(doc, fields: ["n": 1]),
            .update(doc, fields: ["m": 2], mask: [try .path("m")]),
            Write(name: doc, operation: .transform, transforms: [FieldTransform(try .path("n"), .increment(10))]),
        ])
        #expect(try fixture.store.document(doc)?.fields == ["n": 11, "m": 2])
        #expect(result.writeResults.map(\.updateTime) == Array(repeating: result.commitTime, count: 3))
        #expect(result.writeResults[2].transformResults == [.integer(11)])
    }

    @Test("exists and update_time preconditions fail with Firestore's codes and change nothing")
    func preconditions() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("users/bob")
        let other = try fixture.name("users/other")
        let created = try fixture.store.commit([.create(doc, fields: ["v": 1])])
        let updateTime = try #require(created.writeResults[0].updateTime)

        let exists = #expect(throws: FirestoreError.self) { try fixture.store.commit([.create(doc, fields: ["v": 2])]) }
        #expect(exists?.code == .alreadyExists)
        #expect(exists?.message.contains("users/bob") == true)

        let missing = #expect(throws: FirestoreError.self) {
            try fixture.store.commit([
                .set(other, fields: ["partial": true]),
                .update(try fixture.name("users/nobody"), fields: ["v": 1], mask: [try .path("v")]),
            ])
        }
        #expect(missing?.code == .notFound)
        #expect(missing?.message.contains("users/nobody") == true)
        #expect(try fixture.store.document(other) == nil, "a failed commit must write nothing")

        let stale = #expect(throws: FirestoreError.self) {
            try fixture.store.commit([
                Write(name: doc, operation: .update(fields: ["v": 3], mask: nil),
                      precondition: .updateTime(Timestamp(microsecondsSinceEpoch: 42)))
            ])
        }
        #expect(stale?.code == .failedPrecondition)
        #expect(stale?.message.contains("does not match the required base version") == true)
        let staleMissing = #expect(throws: FirestoreError.self) {
            try fixture.store.commit([.delete(other, precondition: .updateTime(updateTime))])
        }
        #expect(staleMissing?.code == .failedPrecondition, "Firestore reports a missing document as stored version 0")
        try fixture.store.commit([
            Write(name: doc, operation: .update(fields: ["v": 4], mask: nil), precondition: .updateTime(updateTime))
        ])
        #expect(try fixture.store.document(doc)?.fields == ["v": 4])

        let deleteMissing = #expect(throws: FirestoreError.self) {
            try fixture.store.commit([.delete(try fixture.name("users/ghost"), precondition: .exists(true))])
        }
        #expect(deleteMissing?.code == .notFound)
        try fixture.store.commit([.delete(try fixture.name("users/ghost"))])
        try fixture.store.commit([.delete(doc, precondition: .exists(true))])
        #expect(try fixture.store.document(doc) == nil)
    }

    @Test("a write that changes nothing keeps the document's update time")
    func unchangedWrite() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("users/same")
        let first = try fixture.store.commit([.set(doc, fields: ["a": 1])])
        fixture.clock.advance(bySeconds: 5)
        let second = try fixture.store.commit([.set(doc, fields: ["a": 1])])
        #expect(second.writeResults[0].updateTime == first.commitTime)
        #expect(try fixture.store.document(doc)?.updateTime == first.commitTime)
        let third = try fixture.store.commit([.set(doc, fields: ["a": 1.0])])
        #expect(third.writeResults[0].updateTime == third.commitTime, "1.0 is stored differently from 1")
    }

    @Test("commit times strictly increase, also when the wall clock stands still or steps back")
    func monotonicCommitTimes() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("t/t")
        var times: [Timestamp] = []
        for step in 0..<20 {
            if step == 10 { fixture.clock.advance(bySeconds: -3600) }
            times.append(try fixture.store.commit([.set(doc, fields: ["step": .integer(Int64(step))])]).commitTime)
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        try fixture.reopen()
        let afterReopen = try fixture.store.commit([.set(doc, fields: ["step": 99])]).commitTime
        #expect(afterReopen > times.last!, "a reopened store continues after its last commit")
        #expect(fixture.store.lastCommitTime == afterReopen)
    }

    @Test("after a crash (a copy of the open store's folder) commit times continue after every commit it holds")
    func monotonicCommitTimesAfterCrash() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("t/t")
        let committed = try fixture.store.commit([.set(doc, fields: ["n": 1])]).commitTime
        // A copy of the folder of a store that is still open is what a crash leaves behind:
        // the write-ahead log holds the commit, and the store never wrote its exact last version.
        let crashed = fixture.folder + "-crashed"
        try FileManager.default.copyItem(atPath: fixture.folder, toPath: crashed)
        try? FileManager.default.removeItem(atPath: crashed + "/LOCK")
        defer { try? FileManager.default.removeItem(atPath: crashed) }
        // The wall clock has not moved: only the stored reservation keeps the next version later.
        let reopened = try DocumentStore(path: crashed, configuration: StoreFixture.configuration(fixture.clock, 3600))
        defer { try? reopened.close() }
        #expect(try reopened.document(doc)?.updateTime == committed)
        #expect(try #require(reopened.lastCommitTime) >= committed)
        let next = try reopened.commit([.set(doc, fields: ["n": 2])]).commitTime
        #expect(next > committed, "a commit after the crash is later than the last commit before it")
    }

    @Test("queries running during commits see exactly the commits up to their read time")
    func queriesDuringCommitsSeeWholeCommits() throws {
        let fixture = try StoreFixture(systemClock: true)
        let store = fixture.store
        let commits = 1500
        let groups = 50
        let names = try (0..<commits).map { try fixture.name("c/d\($0)") }
        // Counts over the index (keys only) of one group each, so that many reads land during commits.
        let counts = try (0..<groups).map { group in
            AggregationQuery(
                query: try fixture.query("c", filter: try filter("g", .equal, .integer(Int64(group)))),
                aggregations: [Aggregation(.count(upTo: nil))])
        }
        let progress = ConcurrentProgress()
        let reader = Thread {
            while !progress.writerDone.load(ordering: .sequentiallyConsistent) {
                let group = progress.reads.load(ordering: .sequentiallyConsistent) % groups
                let read = Result { try store.runAggregation(counts[group]) }
                    .map { (group: group, count: $0.fields["field_1"], readTime: $0.readTime) }
                progress.results.withLock { $0.append(read) }
                progress.reads.add(1, ordering: .sequentiallyConsistent)
            }
        }
        reader.start()
        var times: [Timestamp] = []
        for index in names.indices {
            // Keeps the reader going alongside: a read for every 10 commits at least.
            while progress.reads.load(ordering: .sequentiallyConsistent) < index / 10 { sched_yield() }
            times.append(try store.commit([.create(names[index], fields: ["g": .integer(Int64(index % groups))])]).commitTime)
        }
        progress.writerDone.store(true, ordering: .sequentiallyConsistent)
        while reader.isExecuting { sched_yield() }
        let reads = try progress.results.withLock { try $0.map { try $0.get() } }
        // Document `i`, in group `i % groups`, was created by the commit at times[i]: the index
        // at `readTime` holds exactly the documents committed at or before it.
        let mismatches = reads.filter { read in
            let expected = times.indices.filter { $0 % groups == read.group && times[$0] <= read.readTime }.count
            return read.count != .integer(Int64(expected))
        }
        #expect(reads.count >= commits / 10)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(reads.count) reads, such as \(mismatches.prefix(3))")
    }

    @Test("documents persist across reopen, in several projects and databases")
    func persistenceAndDatabases() throws {
        let fixture = try StoreFixture()
        let named = try DatabaseID(project: "demo-test", database: "named")
        let otherProject = try DatabaseID(project: "other")
        let inDefault = try fixture.name("users/u")
        let inNamed = try DocumentName(named, "users/u")
        let inOther = try DocumentName(otherProject, "users/u")
        try fixture.store.commit([.set(inDefault, fields: ["db": "default"])])
        try fixture.store.commit([.set(inNamed, fields: ["db": "named"])])
        try fixture.store.commit([.set(inOther, fields: ["db": "other"])])
        let mixed = #expect(throws: FirestoreError.self) {
            try fixture.store.commit([.set(inDefault, fields: [:]), .set(inNamed, fields: [:])])
        }
        #expect(mixed?.code == .invalidArgument)
        try fixture.reopen()
        #expect(try fixture.store.document(inDefault)?.fields == ["db": "default"])
        #expect(try fixture.store.document(inNamed)?.fields == ["db": "named"])
        #expect(try fixture.store.document(inOther)?.fields == ["db": "other"])
    }

    @Test("a data folder in use by another store is refused with a message naming it")
    func folderInUse() throws {
        let fixture = try StoreFixture()
        let error = #expect(throws: FirestoreError.self) { try DocumentStore(path: fixture.folder) }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains(fixture.folder) == true)
    }
}

/// What the reader thread of `queriesDuringCommitsSeeWholeCommits` shares with the writer.
private final class ConcurrentProgress: Sendable {
    let writerDone = Atomic(false)
    let reads = Atomic(0)
    let results = Mutex<[Result<(group: Int, count: Value?, readTime: Timestamp), any Error>]>([])
}
