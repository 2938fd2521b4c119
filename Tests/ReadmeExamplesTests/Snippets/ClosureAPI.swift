import HearthEmbedded
import HearthTesting
import UserService

// Every public API of Hearth, HearthTesting and UserService that takes a closure, called as an
// app or a test calls it. scripts/readme-swift-blocks puts these lines, as they are, in
// top-level code, a nonisolated async function, a @MainActor Swift Testing test, a @MainActor
// XCTest method and an actor's method; the tests run them in each.
//
// Scoped closures (runTransaction, withRulesTestEnvironment, withSecurityRulesDisabled,
// assertSucceeds, assertFails) run in the caller's isolation: they change the caller's local
// state and return values that are not Sendable. Listeners are @Sendable and run in their own
// isolation: inherited from the caller, or an explicit @MainActor.
var calls: [String] = []
let db = try Firestore.embedded()
let counter = db.document("counters/visits")
try await counter.setData(["n": 0])

// Firestore.runTransaction, with a result that is not Sendable.
let committed: [String: Any] = try await db.runTransaction { transaction in
    calls.append("transaction")
    let n = try await transaction.getDocument(counter).get("n") as? Int ?? 0
    transaction.updateData(["n": n + 1], forDocument: counter)
    return ["n": n + 1]
}
try await db.runTransaction(maxAttempts: 1) { transaction in
    calls.append("transaction, one attempt")
    transaction.setData(["n": 2], forDocument: counter, merge: true)
}

// A write batch.
let batch = db.batch()
batch.setData(["name": "Alice"], forDocument: db.document("users/alice"))
batch.updateData(["n": FieldValue.increment(Int64(1))], forDocument: counter)
try await batch.commit()

// Listeners: a closure, and a @MainActor closure. Each yields into its own stream: a listener
// with metadata changes may deliver a second snapshot (the server's, after the cache's).
let (documentCounts, documentSink) = AsyncStream<Int>.makeStream()
var documentIterator = documentCounts.makeAsyncIterator()
let documentListener = counter.addSnapshotListener { snapshot, _ in
    documentSink.yield(snapshot?.get("n") as? Int ?? -1)
}
let documentCount = await documentIterator.next()
documentListener.remove()
let (mainActorDocumentCounts, mainActorDocumentSink) = AsyncStream<Int>.makeStream()
var mainActorDocumentIterator = mainActorDocumentCounts.makeAsyncIterator()
let mainActorDocumentListener = counter.addSnapshotListener(includeMetadataChanges: true) { @MainActor snapshot, _ in
    mainActorDocumentSink.yield(snapshot?.get("n") as? Int ?? -1)
}
let mainActorDocumentCount = await mainActorDocumentIterator.next()
mainActorDocumentListener.remove()
let (queryCounts, querySink) = AsyncStream<Int>.makeStream()
var queryIterator = queryCounts.makeAsyncIterator()
let queryListener = db.collection("counters").addSnapshotListener { snapshot, _ in
    querySink.yield(snapshot?.count ?? -1)
}
let queryCount = await queryIterator.next()
queryListener.remove()
let (mainActorQueryCounts, mainActorQuerySink) = AsyncStream<Int>.makeStream()
var mainActorQueryIterator = mainActorQueryCounts.makeAsyncIterator()
let mainActorQueryListener = db.collection("users").addSnapshotListener(includeMetadataChanges: true) {
    @MainActor snapshot, _ in
    mainActorQuerySink.yield(snapshot?.count ?? -1)
}
let mainActorQueryCount = await mainActorQueryIterator.next()
mainActorQueryListener.remove()

// Snapshot sequences.
for try await snapshot in counter.snapshots {
    calls.append("document snapshots: \(snapshot.get("n") as? Int ?? -1)")
    break
}
for try await snapshot in counter.snapshots(includeMetadataChanges: true) {
    calls.append("document snapshots with metadata: \(snapshot.exists)")
    break
}
for try await snapshot in db.collection("users").snapshots {
    calls.append("query snapshots: \(snapshot.count)")
    break
}
for try await snapshot in db.collection("users").snapshots(includeMetadataChanges: true) {
    calls.append("query snapshots with metadata: \(snapshot.count)")
    break
}

// The rules-testing harness.
let rules = RulesSource.source("""
    rules_version = '2';
    service cloud.firestore {
      match /databases/{database}/documents {
        match /notes/{uid} {
          allow read, write: if request.auth != null && request.auth.uid == uid;
        }
      }
    }
    """)
let note: [String: Any] = try await withRulesTestEnvironment(rules: rules) { environment in
    calls.append("environment")
    try await environment.withSecurityRulesDisabled { admin in
        calls.append("rules disabled")
        try await admin.document("notes/alice").setData(["text": "hello"])
    }
    let alice = environment.authenticatedContext(uid: "alice").firestore()
    let bob = environment.authenticatedContext(uid: "bob").firestore()
    try await assertFails {
        calls.append("assertFails")
        try await bob.document("notes/alice").delete()
    }
    return try await assertSucceeds {
        calls.append("assertSucceeds")
        return try await alice.document("notes/alice").getDocument().data() ?? [:]
    }
}
let environment = try await RulesTestEnvironment(rules: rules)
let seeded = try await environment.withSecurityRulesDisabled { admin in
    try await admin.document("notes/bob").setData(["text": "hi"])
    return admin.document("notes/bob")
}
let guest = environment.unauthenticatedContext().firestore()
let denial = try await assertFails { try await guest.document(seeded.path).getDocument() }
try await environment.cleanup()

// UserService: observeUser with a closure, and with a @MainActor closure.
let auth = AuthenticationService(firestore: db)
let session = try await auth.signUp(email: "carol@example.com", password: "secret1")
let (names, nameSink) = AsyncStream<String>.makeStream()
var nameIterator = names.makeAsyncIterator()
let observer = session.users.observeUser(id: session.uid) { result in
    nameSink.yield((try? result.get())?.displayName ?? "no profile")
}
let firstName = await nameIterator.next()
try await session.users.updateUser(id: session.uid, data: ["displayName": "Carol"])
let updatedName = await nameIterator.next()
observer.remove()
let mainActorObserver = session.users.observeUser(id: session.uid) { @MainActor result in
    nameSink.yield((try? result.get())?.displayName ?? "no profile")
}
let mainActorName = await nameIterator.next()
mainActorObserver.remove()
// Its own stream: the observers above may still deliver the server's update time of the write.
let (invalidNames, invalidSink) = AsyncStream<String>.makeStream()
var invalidIterator = invalidNames.makeAsyncIterator()
let invalidObserver = session.users.observeUser(id: "") { result in
    invalidSink.yield((try? result.get())?.displayName ?? "no profile")
}
let invalidName = await invalidIterator.next()
invalidObserver.remove()
await db.terminate()

let expectedCalls = [
    "transaction", "transaction, one attempt", "document snapshots: 3", "document snapshots with metadata: true",
    "query snapshots: 1", "query snapshots with metadata: 1", "environment", "rules disabled", "assertFails",
    "assertSucceeds",
]
let results: [Any?] = [
    committed["n"], documentCount, mainActorDocumentCount, queryCount, mainActorQueryCount, note["text"],
    "\(denial)".hasPrefix("PERMISSION_DENIED"), firstName, updatedName, mainActorName, invalidName,
]
let expectedResults: [String] = ["1", "3", "3", "1", "1", "hello", "true", "carol", "Carol", "Carol", "no profile"]
struct UnexpectedResults: Error {
    var calls: [String]
    var results: [String]
}
let described = results.map { "\($0 ?? "nil")" }
guard calls == expectedCalls, described == expectedResults else {
    throw UnexpectedResults(calls: calls, results: described)
}
