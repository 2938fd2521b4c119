import DocumentModel
import DocumentStore
import SecurityRules
import Testing

/// Every read, query and commit of the store takes the caller's `RequestIdentity`, the admin by
/// default: a call without `as:` bypasses the project's rules, a user's or an unauthenticated
/// call is judged by them.
@Suite struct RequestIdentityTests {
    static let rules = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /users/{userId} {
              allow read, write: if request.auth != null && request.auth.uid == 'alice';
            }
          }
        }
        """

    let fixture: StoreFixture
    let alice = RequestIdentity.user(RulesAuth(uid: "alice"))
    let bob = RequestIdentity.user(RulesAuth(uid: "bob"))

    init() throws {
        fixture = try StoreFixture()
        fixture.store.setRules(try Ruleset(source: RequestIdentityTests.rules), project: fixture.database.project)
    }

    /// Expects `body` to fail with PERMISSION_DENIED.
    private func expectDenied(
        _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        let error = await #expect(throws: FirestoreError.self, "\(what)", sourceLocation: sourceLocation) {
            try await body()
        }
        #expect(error?.code == .permissionDenied, "\(what)", sourceLocation: sourceLocation)
    }

    @Test func readsWithoutAnIdentityAreTheAdminsAndBypassTheRules() async throws {
        let store = fixture.store
        let name = try fixture.name("users/u1")
        try store.commit([.set(name, fields: ["n": 1])])
        try await store.commitWaitingForLocks([.update(name, fields: ["n": 2], mask: [try FieldPath("n")])])
        #expect(try store.document(name)?.fields == ["n": 2])
        let query = try fixture.query("users")
        #expect(try store.runQuery(query).documents.count == 1)
        let count = AggregationQuery(query: query, aggregations: [Aggregation(.count(upTo: nil))])
        #expect(try store.runAggregation(count).fields["field_1"] == .integer(1))

        let transaction = try store.beginTransaction()
        #expect(try await store.runQuery(query, transaction: transaction).documents.count == 1)
        #expect(try await store.runAggregation(count, transaction: transaction).fields["field_1"] == .integer(1))
        try await store.commit([.delete(name)], transaction: transaction)
        #expect(try store.document(name) == nil)
    }

    @Test func eachCallIsJudgedForTheIdentityItIsGiven() async throws {
        let store = fixture.store
        let name = try fixture.name("users/u1")
        let query = try fixture.query("users")
        let count = AggregationQuery(query: query, aggregations: [Aggregation(.count(upTo: nil))])
        for denied in [RequestIdentity.unauthenticated, bob] {
            await expectDenied("commit") { try store.commit([.set(name, fields: ["n": 1])], as: denied) }
            await expectDenied("commitWaitingForLocks") {
                try await store.commitWaitingForLocks([.set(name, fields: ["n": 1])], as: denied)
            }
            await expectDenied("document") { _ = try store.document(name, as: denied) }
            await expectDenied("runQuery") { _ = try store.runQuery(query, as: denied) }
            await expectDenied("runAggregation") { _ = try store.runAggregation(count, as: denied) }
            let transaction = try store.beginTransaction()
            await expectDenied("runQuery in a transaction") {
                _ = try await store.runQuery(query, transaction: transaction, as: denied)
            }
            await expectDenied("runAggregation in a transaction") {
                _ = try await store.runAggregation(count, transaction: transaction, as: denied)
            }
            await expectDenied("commit in a transaction") {
                try await store.commit([.set(name, fields: ["n": 1])], transaction: transaction, as: denied)
            }
        }
        #expect(try store.document(name) == nil, "no denied write was applied")

        try store.commit([.set(name, fields: ["n": 1])], as: alice)
        try await store.commitWaitingForLocks([.set(name, fields: ["n": 2])], as: alice)
        #expect(try store.document(name, as: alice)?.fields == ["n": 2])
        #expect(try store.runQuery(query, as: alice).documents.count == 1)
        #expect(try store.runAggregation(count, as: alice).fields["field_1"] == .integer(1))
        let transaction = try store.beginTransaction()
        #expect(try await store.runQuery(query, transaction: transaction, as: alice).documents.count == 1)
        #expect(try await store.runAggregation(count, transaction: transaction, as: alice).fields["field_1"] == .integer(1))
        try await store.commit([.delete(name)], transaction: transaction, as: alice)
        #expect(try store.document(name) == nil)
    }
}
