import DocumentModel
import DocumentStore
import Hearth
import Testing

@Suite("Transactions on both backends")
struct TransactionTests {
    @Test(arguments: BackendKind.allCases)
    func readModifyWrite(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let counter = test.db.document("counters/c")
            try await counter.setData(["n": 1])
            let result = try await test.db.runTransaction { transaction in
                let snapshot = try await transaction.getDocument(counter)
                let next = (snapshot.get("n") as? Int ?? 0) + 1
                transaction.updateData(["n": next], forDocument: counter)
                transaction.setData(["copy": next], forDocument: test.db.document("counters/copy"))
                transaction.setData(["more": true], forDocument: test.db.document("counters/copy"), merge: true)
                transaction.deleteDocument(test.db.document("counters/old"))
                return next
            }
            #expect(result == 2)
            #expect(try await counter.getDocument().get("n") as? Int == 2)
            let copy = try await test.db.document("counters/copy").getDocument()
            #expect(copy.get("copy") as? Int == 2 && copy.get("more") as? Bool == true)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func contendingTransactionsAllCommit(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let counter = test.db.document("counters/c")
            try await counter.setData(["n": 0])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await test.db.runTransaction { transaction in
                            let n = try await transaction.getDocument(counter).get("n") as? Int ?? 0
                            transaction.updateData(["n": n + 1], forDocument: counter)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await counter.getDocument().get("n") as? Int == 8)
        }
    }

    struct Refusal: Error {}

    @Test(arguments: BackendKind.allCases)
    func errorsRollBackAndAreNotRetried(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("docs/a")
            let attempts = Counter()
            await #expect(throws: Refusal.self) {
                try await test.db.runTransaction { transaction in
                    attempts.increment()
                    transaction.setData(["written": true], forDocument: ref)
                    throw Refusal()
                }
            }
            #expect(attempts.value == 1)
            let afterRefusal = try await ref.getDocument()
            #expect(!afterRefusal.exists)

            await expectError(.invalidArgument) {
                try await test.db.runTransaction { transaction in
                    transaction.setData(["a": 1], forDocument: ref)
                    _ = try await transaction.getDocument(ref)
                }
            }
            await expectError(.notFound) {
                try await test.db.runTransaction { transaction in
                    _ = transaction.updateData(["a": 1], forDocument: ref)
                }
            }
            let afterFailures = try await ref.getDocument()
            #expect(!afterFailures.exists)
        }
    }

    /// A write outside the transaction between its read and its commit aborts the attempt;
    /// the retry reads the new value and commits.
    @Test(arguments: BackendKind.allCases)
    func abortedAttemptIsRetried(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.document("docs/a")
            try await ref.setData(["n": 1])
            let attempts = Counter()
            let seen = try await test.db.runTransaction { transaction in
                let attempt = attempts.increment()
                let n = try await transaction.getDocument(ref).get("n") as? Int ?? 0
                if attempt == 1 {
                    // A plain write does not wait for the transaction's lock; the commit then aborts.
                    try test.store.commit([.set(try DocumentName(TestDatabase.database, "docs/a"), fields: ["n": 10])])
                }
                transaction.updateData(["n": n + 1], forDocument: ref)
                return n
            }
            #expect(attempts.value == 2)
            #expect(seen == 10)
            #expect(try await ref.getDocument().get("n") as? Int == 11)
        }
    }
}
