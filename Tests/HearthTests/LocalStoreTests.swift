import DocumentModel
import Foundation
import Hearth
import HearthPersistence
import Testing

/// The client's local cache (#14): `MemoryLocalStore` and `PersistentLocalStore` over the same
/// cases where the semantics are shared, and the LevelDB folder's own behaviour (reopening, the
/// folder lock, `destroy(path:)`).
@Suite("Local store")
struct LocalStoreTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, persistent
        var testDescription: String { rawValue }
    }

    /// A store of `kind` in a fresh temporary folder (a missing nested one, for the persistent
    /// store), removed afterwards.
    static func withStore(
        _ kind: Kind, sizeBytes: Int64 = -1, _ body: (any LocalStore, String) throws -> Void
    ) throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("LocalStoreTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/nested/cache"
        let store: any LocalStore =
            switch kind {
            case .memory: MemoryLocalStore(sizeBytes: sizeBytes)
            case .persistent: try PersistentLocalStore(path: folder, sizeBytes: sizeBytes)
            }
        defer { try? store.close() }
        try body(store, folder)
    }

    static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("LocalStoreTests-\(UUID().uuidString)").path
    }

    static let database = try! DatabaseID(project: "demo")
    static let otherDatabase = try! DatabaseID(project: "demo", database: "other")

    static func name(_ path: String, in database: DatabaseID = database) throws -> DocumentName {
        try DocumentName(database, path)
    }

    static func time(_ seconds: Int64, _ nanoseconds: Int32 = 0) throws -> Timestamp {
        try Timestamp(seconds: 1_700_000_000 + seconds, nanoseconds: nanoseconds)
    }

    static func document(_ path: String, in database: DatabaseID = database, fields: MapValue = ["n": 1]) throws
        -> Document
    {
        Document(
            name: try name(path, in: database), fields: fields, createTime: try time(1, 5),
            updateTime: try time(2, 123_456_789))
    }

    /// A field of every value type, nested maps and arrays, NaN, bytes with zero bytes and references.
    static func everyValue() throws -> MapValue {
        [
            "null": .null,
            "true": .boolean(true),
            "false": .boolean(false),
            "integer": .integer(-9_007_199_254_740_993),
            "double": .double(3.25),
            "nan": .double(.nan),
            "infinity": .double(-.infinity),
            "negativeZero": .double(-0.0),
            "timestamp": .timestamp(try time(3, 999_999_999)),
            "string": .string("zero\u{0}byte, ünïcødé 🔥"),
            "empty": .string(""),
            "bytes": .bytes([0, 1, 0xFF, 0]),
            "reference": .reference(try name("users/alice/posts/p1")),
            "otherDatabase": .reference(try name("users/bob", in: otherDatabase)),
            "geo": .geoPoint(try GeoPoint(latitude: -33.5, longitude: 151.25)),
            "array": .array([.integer(1), .string("two"), .array([.null]), .map(["k": .boolean(false)])]),
            "vector": Value.vector([1.5, -2, 0]),
            "map": .map(["nested": .map(["deeper": .map(["n": .integer(7), "list": .array([])])]), "": .null]),
            "emptyMap": .map([:]),
        ]
    }

    static func sizeEstimate(_ store: any LocalStore) -> Int64 {
        if let memory = store as? MemoryLocalStore { return memory.sizeEstimate }
        return (store as! PersistentLocalStore).sizeEstimate
    }

    /// Runs `body`, expecting a `FirestoreError` with `code`.
    static func expectError(
        _ code: FirestoreError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected a \(code) error", sourceLocation: sourceLocation)
        } catch let error as FirestoreError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a \(code) error, not \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Remote entries

    @Test(arguments: Kind.allCases)
    func entriesRoundTrip(_ kind: Kind) throws {
        try Self.withStore(kind) { store, _ in
            let alice = try Self.document("users/alice", fields: try Self.everyValue())
            let missing = try Self.name("users/missing")
            let change = LocalStoreChange(entries: [
                alice.name: RemoteEntry(document: alice, readTime: try Self.time(10, 1)),
                missing: RemoteEntry(document: nil, readTime: try Self.time(11)),
            ])
            try store.apply(change)
            let read = try #require(try store.entry(alice.name))
            #expect(read == RemoteEntry(document: alice, readTime: try Self.time(10, 1)))
            // `Value ==` equates 1 and 1.0 and NaN with NaN: check the types too.
            let fields = try #require(read.document?.fields)
            guard case .double(let nan) = fields["nan"], nan.isNaN else {
                Issue.record("NaN came back as \(String(describing: fields["nan"]))")
                return
            }
            guard case .integer(-9_007_199_254_740_993) = fields["integer"] else {
                Issue.record("the integer came back as \(String(describing: fields["integer"]))")
                return
            }
            guard case .double(let zero) = fields["negativeZero"], zero == 0, zero.sign == .minus else {
                Issue.record("-0.0 came back as \(String(describing: fields["negativeZero"]))")
                return
            }
            #expect(try store.entry(missing) == RemoteEntry(document: nil, readTime: try Self.time(11)))
            #expect(try store.entry(try Self.name("users/unknown")) == nil)
            // The same path in another database is another entry.
            #expect(try store.entry(try Self.name("users/alice", in: Self.otherDatabase)) == nil)

            // Replacing: a document becomes known missing, and back.
            try store.apply(LocalStoreChange(entries: [alice.name: RemoteEntry(document: nil, readTime: try Self.time(12))]))
            #expect(try store.entry(alice.name) == RemoteEntry(document: nil, readTime: try Self.time(12)))
            let back = try Self.document("users/missing")
            try store.apply(LocalStoreChange(entries: [missing: RemoteEntry(document: back, readTime: try Self.time(13))]))
            #expect(try store.entry(missing)?.document == back)
        }
    }

    @Test(arguments: Kind.allCases)
    func documentsUnderAPrefix(_ kind: Kind) throws {
        try Self.withStore(kind) { store, _ in
            let stored = [
                "users/a", "users/b", "users2/c", "user/d", "users/a/posts/p1", "users/a/users/y", "groups/g/users/x",
                "groups/g",
            ]
            var entries: [DocumentName: RemoteEntry] = [:]
            for path in stored {
                let document = try Self.document(path)
                entries[document.name] = RemoteEntry(document: document, readTime: try Self.time(1))
            }
            let other = try Self.document("users/z", in: Self.otherDatabase)
            entries[other.name] = RemoteEntry(document: other, readTime: try Self.time(1))
            entries[try Self.name("users/missing")] = RemoteEntry(document: nil, readTime: try Self.time(1))
            try store.apply(LocalStoreChange(entries: entries))

            func paths(
                _ parent: String, _ collectionID: String, allDescendants: Bool = false,
                in database: DatabaseID = Self.database
            ) throws -> Set<String> {
                let documents = try store.documents(
                    in: database, parent: try ResourcePath(parent), collectionID: collectionID,
                    allDescendants: allDescendants)
                return Set(documents.map(\.name.path.description))
            }
            // A collection: not `users2`, not `user`, not the missing entry, not another database;
            // below its documents' subcollections too (a superset of the query's scope).
            #expect(try paths("", "users") == ["users/a", "users/b", "users/a/posts/p1", "users/a/users/y"])
            #expect(try paths("", "users2") == ["users2/c"])
            #expect(try paths("", "user") == ["user/d"])
            // A subcollection.
            #expect(try paths("users/a", "posts") == ["users/a/posts/p1"])
            #expect(try paths("users/a", "users") == ["users/a/users/y"])
            #expect(try paths("users/b", "posts").isEmpty)
            // Collection groups: everything below the parent (never the parent itself), which
            // holds every document of the group.
            let everything: Set<String> = [
                "users/a", "users/b", "users2/c", "user/d", "users/a/posts/p1", "users/a/users/y", "groups/g/users/x",
                "groups/g",
            ]
            #expect(try paths("", "users", allDescendants: true) == everything)
            #expect(try paths("users/a", "users", allDescendants: true) == ["users/a/posts/p1", "users/a/users/y"])
            #expect(try paths("groups/g", "users", allDescendants: true) == ["groups/g/users/x"])
            let group = try paths("", "users", allDescendants: true)
            for path in ["users/a", "users/b", "users/a/users/y", "groups/g/users/x"] { #expect(group.contains(path)) }
            // Another database.
            #expect(try paths("", "users", in: Self.otherDatabase) == ["users/z"])
            #expect(try paths("", "users", allDescendants: true, in: Self.otherDatabase) == ["users/z"])
            // The documents come back whole.
            let documents = try store.documents(
                in: Self.database, parent: .root, collectionID: "users2", allDescendants: false)
            #expect(documents == [try Self.document("users2/c")])
        }
    }

    @Test func bothStoresAnswerInTheSameOrder() throws {
        var answers: [[String]] = []
        for kind in Kind.allCases {
            try Self.withStore(kind) { store, _ in
                var entries: [DocumentName: RemoteEntry] = [:]
                for path in ["c/b", "c/a", "c/a/s/x", "c/ab", "c/~", "c/é", "c/Z", "c/a b"] {
                    let document = try Self.document(path)
                    entries[document.name] = RemoteEntry(document: document, readTime: try Self.time(1))
                }
                try store.apply(LocalStoreChange(entries: entries))
                answers.append(
                    try store.documents(in: Self.database, parent: .root, collectionID: "c", allDescendants: false)
                        .map(\.name.path.description))
            }
        }
        #expect(answers[0].count == 8)
        #expect(answers[0] == answers[1])
    }

    // MARK: Targets

    @Test(arguments: Kind.allCases)
    func targetsSetAndRemove(_ kind: Kind) throws {
        try Self.withStore(kind) { store, _ in
            let first = TargetRecord(resumeToken: [0, 1, 2, 0xFF], snapshotVersion: try Self.time(5, 6))
            let second = TargetRecord(resumeToken: [], snapshotVersion: try Self.time(7))
            try store.apply(LocalStoreChange(targets: ["users|f:|ob:__name__asc": first, "doc:users/a": second]))
            #expect(try store.target("users|f:|ob:__name__asc") == first)
            #expect(try store.target("doc:users/a") == second)
            #expect(try store.target("doc:users/b") == nil)

            let updated = TargetRecord(resumeToken: Array("token".utf8), snapshotVersion: try Self.time(8))
            let targets: [String: TargetRecord?] = ["users|f:|ob:__name__asc": updated, "doc:users/a": nil]
            try store.apply(LocalStoreChange(targets: targets))
            #expect(try store.target("users|f:|ob:__name__asc") == updated)
            #expect(try store.target("doc:users/a") == nil)
            // Removing a record that is not there is fine.
            let removal: [String: TargetRecord?] = ["never": nil]
            try store.apply(LocalStoreChange(targets: removal))
            #expect(try store.target("never") == nil)
        }
    }

    // MARK: Mutation batches

    /// Every kind of write: set, set with merge and transforms, update with a precondition,
    /// create, deletes with and without a precondition, and a transform-only write with every
    /// transform kind.
    static func everyWrite() throws -> [Write] {
        let alice = try name("users/alice")
        let mask = [
            try DocumentModel.FieldPath("a.b"), DocumentModel.FieldPath(uncheckedSegments: ["odd-name", "x y"]),
            try DocumentModel.FieldPath("gone"),
        ]
        let allTransforms: [FieldTransform] = [
            FieldTransform(try DocumentModel.FieldPath("updated"), .serverTimestamp),
            FieldTransform(try DocumentModel.FieldPath("count"), .increment(.integer(1))),
            FieldTransform(try DocumentModel.FieldPath("total"), .increment(.double(0.5))),
            FieldTransform(try DocumentModel.FieldPath("high"), .maximum(.integer(10))),
            FieldTransform(try DocumentModel.FieldPath("low"), .minimum(.double(-1.5))),
            FieldTransform(try DocumentModel.FieldPath("tags"), .appendMissingElements([.string("a"), .integer(2)])),
            FieldTransform(try DocumentModel.FieldPath("tags"), .removeAllFromArray([.string("b"), .null])),
        ]
        return [
            .set(alice, fields: try everyValue()),
            .setMerge(
                try name("users/bob"), fields: ["a": .map(["b": .integer(1)]), "odd-name": .map(["x y": .string("v")])],
                mask: mask, transforms: [FieldTransform(try DocumentModel.FieldPath("seen"), .serverTimestamp)]),
            .update(try name("users/carol"), fields: ["age": .integer(31)], mask: [try DocumentModel.FieldPath("age")]),
            Write(
                name: try name("users/dave"), operation: .update(fields: ["n": .integer(1)], mask: []),
                precondition: .updateTime(try time(4, 44))),
            .create(try name("users/erin"), fields: [:]),
            .delete(try name("users/frank")),
            .delete(try name("users/gina"), precondition: .exists(true)),
            Write(name: try name("counters/c"), operation: .transform, transforms: allTransforms),
            Write(name: try name("counters/d"), operation: .transform, transforms: allTransforms,
                  precondition: .exists(false)),
            .set(try name("users/z", in: otherDatabase), fields: ["other": .boolean(true)]),
        ]
    }

    @Test(arguments: Kind.allCases)
    func batchesRoundTripInOrder(_ kind: Kind) throws {
        try Self.withStore(kind) { store, _ in
            #expect(try store.nextBatchID() == 1)
            #expect(try store.mutationBatches().isEmpty)
            let first = MutationBatch(batchID: 1, localWriteTime: try Self.time(20, 1), writes: try Self.everyWrite())
            let second = MutationBatch(
                batchID: 2, localWriteTime: try Self.time(21), writes: [.delete(try Self.name("users/alice"))])
            let tenth = MutationBatch(
                batchID: 300, localWriteTime: try Self.time(22),
                writes: [.set(try Self.name("users/h"), fields: ["k": .integer(3)])])
            try store.apply(LocalStoreChange(addedBatches: [first, second]))
            try store.apply(LocalStoreChange(addedBatches: [tenth]))
            #expect(try store.mutationBatches() == [first, second, tenth])
            #expect(try store.nextBatchID() == 301)

            try store.apply(LocalStoreChange(removedBatchIDs: [2, 999]))
            #expect(try store.mutationBatches() == [first, tenth])

            // IDs are never reused: not the last one, not a removed one.
            for reused in [Int64(300), 2, 1] {
                Self.expectError(.invalidArgument) {
                    try store.apply(LocalStoreChange(addedBatches: [
                        MutationBatch(batchID: reused, localWriteTime: try Self.time(23), writes: [])
                    ]))
                }
            }
            #expect(try store.mutationBatches() == [first, tenth])
        }
    }

    // MARK: Atomicity

    @Test(arguments: Kind.allCases)
    func applyIsAtomic(_ kind: Kind) throws {
        try Self.withStore(kind) { store, _ in
            let alice = try Self.document("users/alice")
            let batch = MutationBatch(
                batchID: 1, localWriteTime: try Self.time(1), writes: [.set(alice.name, fields: ["n": .integer(2)])])
            try store.apply(LocalStoreChange(
                entries: [alice.name: RemoteEntry(document: alice, readTime: try Self.time(1))],
                targets: ["t": TargetRecord(resumeToken: [1], snapshotVersion: try Self.time(1))],
                addedBatches: [batch]))
            #expect(try store.entry(alice.name)?.document == alice)
            #expect(try store.mutationBatches() == [batch])
            #expect(try store.target("t") != nil)

            // A change refused in part changes nothing.
            let bob = try Self.document("users/bob")
            let targets: [String: TargetRecord?] = [
                "t": nil, "u": TargetRecord(resumeToken: [], snapshotVersion: try Self.time(2)),
            ]
            Self.expectError(.invalidArgument) {
                try store.apply(LocalStoreChange(
                    entries: [bob.name: RemoteEntry(document: bob, readTime: try Self.time(2))],
                    targets: targets,
                    addedBatches: [MutationBatch(batchID: 1, localWriteTime: try Self.time(2), writes: [])],
                    removedBatchIDs: [1]))
            }
            #expect(try store.entry(bob.name) == nil)
            #expect(try store.target("t") != nil)
            #expect(try store.target("u") == nil)
            #expect(try store.mutationBatches() == [batch])
            #expect(try store.nextBatchID() == 2)

            // Acknowledged: the batch goes and the server's version comes in one change.
            let acknowledged = Document(
                name: alice.name, fields: ["n": .integer(2)], createTime: alice.createTime, updateTime: try Self.time(3))
            try store.apply(LocalStoreChange(
                entries: [alice.name: RemoteEntry(document: acknowledged, readTime: try Self.time(3))],
                removedBatchIDs: [1]))
            #expect(try store.entry(alice.name)?.document == acknowledged)
            #expect(try store.mutationBatches().isEmpty)
        }
    }

    @Test(arguments: Kind.allCases)
    func closedStoreRefusesCalls(_ kind: Kind) throws {
        try Self.withStore(kind) { store, _ in
            try store.close()
            try store.close()
            let alice = try Self.name("users/alice")
            Self.expectError(.failedPrecondition) { _ = try store.entry(alice) }
            Self.expectError(.failedPrecondition) { _ = try store.mutationBatches() }
            Self.expectError(.failedPrecondition) { _ = try store.nextBatchID() }
            Self.expectError(.failedPrecondition) { try store.apply(LocalStoreChange()) }
        }
    }

    // MARK: Eviction

    @Test(arguments: Kind.allCases)
    func evictionKeepsDocumentsOfPendingBatches(_ kind: Kind) throws {
        let limit: Int64 = 8_000
        try Self.withStore(kind, sizeBytes: limit) { store, folder in
            let padding = Value.string(String(repeating: "x", count: 500))
            let protected = try Self.name("docs/d00")
            // A pending write to the oldest document; a target record.
            try store.apply(LocalStoreChange(
                targets: ["t": TargetRecord(resumeToken: [1, 2], snapshotVersion: try Self.time(1))],
                addedBatches: [
                    MutationBatch(batchID: 1, localWriteTime: try Self.time(0), writes: [.delete(protected)])
                ]))
            // Forty documents of about 550 bytes, each read later than the one before.
            let names = try (0..<40).map { try Self.name("docs/d\($0 < 10 ? "0" : "")\($0)") }
            for (index, name) in names.enumerated() {
                let document = Document(
                    name: name, fields: ["padding": padding], createTime: try Self.time(1), updateTime: try Self.time(1))
                try store.apply(LocalStoreChange(entries: [
                    name: RemoteEntry(document: document, readTime: try Self.time(Int64(index + 10)))
                ]))
                #expect(Self.sizeEstimate(store) <= limit)
            }
            let present = try names.map { try store.entry($0) != nil }
            #expect(present[0], "a document a pending batch writes is never evicted")
            #expect(present.last == true)
            #expect(!present[1])
            // What was evicted is the oldest: after the first document kept, every one is kept.
            let firstKept = try #require(present.dropFirst().firstIndex(of: true))
            #expect(present[firstKept...].allSatisfy { $0 })
            #expect(present.filter { $0 }.count < 20)
            // Evicting dropped the target records (their resume tokens may miss evicted documents).
            #expect(try store.target("t") == nil)
            #expect(try store.mutationBatches().count == 1)

            // Once the batch is gone, its document may go too.
            try store.apply(LocalStoreChange(removedBatchIDs: [1]))
            for index in 40..<60 {
                let name = try Self.name("docs/d\(index)")
                let document = Document(
                    name: name, fields: ["padding": padding], createTime: try Self.time(1), updateTime: try Self.time(1))
                try store.apply(LocalStoreChange(entries: [
                    name: RemoteEntry(document: document, readTime: try Self.time(Int64(index + 10)))
                ]))
            }
            #expect(try store.entry(protected) == nil)

            guard kind == .persistent else { return }
            // The estimate is measured again at open: the same.
            let estimate = Self.sizeEstimate(store)
            try store.close()
            let reopened = try PersistentLocalStore(path: folder, sizeBytes: limit)
            #expect(reopened.sizeEstimate == estimate)
            try reopened.close()
            // A smaller limit evicts at open.
            let smaller = try PersistentLocalStore(path: folder, sizeBytes: 2_000)
            #expect(smaller.sizeEstimate < 2_000)
            #expect(try smaller.entry(try Self.name("docs/d59")) != nil)
            try smaller.close()
        }
    }

    @Test(arguments: Kind.allCases)
    func noLimitNeverEvicts(_ kind: Kind) throws {
        try Self.withStore(kind, sizeBytes: -1) { store, _ in
            let padding = Value.string(String(repeating: "y", count: 1_000))
            for index in 0..<50 {
                let document = try Self.document("docs/d\(index)", fields: ["padding": padding])
                try store.apply(LocalStoreChange(entries: [
                    document.name: RemoteEntry(document: document, readTime: try Self.time(Int64(index)))
                ]))
            }
            let all = try store.documents(in: Self.database, parent: .root, collectionID: "docs", allDescendants: false)
            #expect(all.count == 50)
            // The memory store does not measure entries it will never evict.
            #expect(kind == .memory || Self.sizeEstimate(store) > 50_000)
        }
    }

    // MARK: The LevelDB folder

    @Test func persistsAcrossReopen() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let alice = try Self.document("users/alice", fields: try Self.everyValue())
        let missing = try Self.name("users/missing")
        let target = TargetRecord(resumeToken: [9, 8, 7], snapshotVersion: try Self.time(30))
        let first = MutationBatch(batchID: 1, localWriteTime: try Self.time(31), writes: try Self.everyWrite())
        let second = MutationBatch(
            batchID: 2, localWriteTime: try Self.time(32), writes: [.delete(try Self.name("users/alice"))])

        var store = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
        try store.apply(LocalStoreChange(
            entries: [
                alice.name: RemoteEntry(document: alice, readTime: try Self.time(29)),
                missing: RemoteEntry(document: nil, readTime: try Self.time(28)),
            ],
            targets: ["q": target], addedBatches: [first, second]))
        let estimate = store.sizeEstimate
        #expect(estimate > 0)
        try store.close()

        store = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
        #expect(try store.entry(alice.name) == RemoteEntry(document: alice, readTime: try Self.time(29)))
        #expect(try store.entry(missing) == RemoteEntry(document: nil, readTime: try Self.time(28)))
        #expect(try store.target("q") == target)
        #expect(try store.mutationBatches() == [first, second])
        #expect(try store.nextBatchID() == 3)
        #expect(store.sizeEstimate == estimate)

        // Every batch removed: the next ID still continues after a restart.
        try store.apply(LocalStoreChange(removedBatchIDs: [1, 2]))
        try store.close()
        store = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
        #expect(try store.mutationBatches().isEmpty)
        #expect(try store.nextBatchID() == 3)
        let third = MutationBatch(batchID: 3, localWriteTime: try Self.time(33), writes: [])
        try store.apply(LocalStoreChange(addedBatches: [third]))
        try store.close()
        store = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
        #expect(try store.mutationBatches() == [third])
        #expect(try store.nextBatchID() == 4)
        try store.close()
    }

    @Test func secondOpenOfTheSameFolderFails() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
        do {
            _ = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
            Issue.record("a second open of \(folder) succeeded")
        } catch let error as FirestoreError {
            #expect(error.code == .failedPrecondition)
            #expect(error.message.hasPrefix(
                "The persistent cache at \(folder) is in use by another Firestore instance or process"))
        }
        // Nor can it be destroyed while open.
        Self.expectError(.failedPrecondition) { try PersistentLocalStore.destroy(path: folder) }
        #expect(FileManager.default.fileExists(atPath: folder))
        // Once closed, it opens again.
        try first.close()
        let second = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
        try second.close()
    }

    @Test func destroyDeletesTheFolder() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let alice = try Self.document("users/alice")
        var store = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
        try store.apply(LocalStoreChange(
            entries: [alice.name: RemoteEntry(document: alice, readTime: try Self.time(1))],
            addedBatches: [MutationBatch(batchID: 1, localWriteTime: try Self.time(1), writes: [])]))
        try store.close()

        try PersistentLocalStore.destroy(path: folder)
        #expect(!FileManager.default.fileExists(atPath: folder))
        // Destroying what is not there is fine.
        try PersistentLocalStore.destroy(path: folder)

        store = try PersistentLocalStore(path: folder, sizeBytes: 1 << 20)
        #expect(try store.entry(alice.name) == nil)
        #expect(try store.mutationBatches().isEmpty)
        #expect(try store.nextBatchID() == 1)
        try store.close()

        // A folder that is no cache at all goes too.
        let stray = Self.temporaryFolder()
        try FileManager.default.createDirectory(atPath: stray, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: stray + "/file"))
        try PersistentLocalStore.destroy(path: stray)
        #expect(!FileManager.default.fileExists(atPath: stray))
    }
}
