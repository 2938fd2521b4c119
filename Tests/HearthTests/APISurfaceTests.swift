import Foundation
import Hearth
import HearthEmbedded
import Testing

/// Calls every public signature of `Hearth`, so that a change to the API surface fails to
/// compile here first (as Firestore's own SDK keeps such a test). The function is compiled,
/// never run: `apiSurfaceCompiles` only checks that it exists.
@Suite("API surface")
struct APISurfaceTests {
    @Test func apiSurfaceCompiles() {
        let reference: (Firestore) async throws -> Void = APISurfaceTests.callEverySignature
        _ = reference
    }

    // swiftlint:disable:next function_body_length
    static func callEverySignature(_ db: Firestore) async throws {
        // Firestore and its backends.
        let store = try DocumentStoreProvider.make()
        _ = try Firestore.embedded(store: store, projectID: "p", databaseID: "(default)", identity: .admin)
        _ = try Firestore.embedded(path: "/tmp/x", projectID: "p", databaseID: "(default)", identity: .unauthenticated)
        _ = try Firestore.embedded(projectID: "p", databaseID: "(default)", identity: .user(uid: "u", claims: ["a": 1]))
        _ = try Firestore.remote(host: "127.0.0.1", port: 8080, projectID: "p", databaseID: "(default)", identity: .admin)
        _ = try Firestore.remote(projectID: "p", databaseID: "(default)", identity: .admin, environment: [:])
        let _: String = Firestore.defaultProjectID
        let _: String = Firestore.emulatorHostVariable
        let _: String = db.projectID
        let _: String = db.databaseID
        let identity: Identity = db.identity
        let _: String? = identity.uid
        let _: String = identity.description
        let other: Firestore = db.withIdentity(.user(uid: "u"))
        await other.terminate()

        // References.
        let users: CollectionReference = db.collection("users")
        let alice: DocumentReference = db.document("users/alice")
        let group: Query = db.collectionGroup("posts")
        let _: String = users.path
        let _: String = users.collectionID
        let _: DocumentReference? = users.parent
        let _: DocumentReference = users.document()
        let _: DocumentReference = users.document("bob")
        let _: DocumentReference = try await users.addDocument(data: ["a": 1])
        let _: DocumentReference = try await users.addDocument(from: ["a": 1])
        let _: Firestore = alice.firestore
        let _: String = alice.path
        let _: String = alice.documentID
        let _: CollectionReference = alice.parent
        let _: CollectionReference = alice.collection("posts")
        let _: String = alice.description

        // Document reads and writes.
        let snapshot: DocumentSnapshot = try await alice.getDocument()
        _ = try await alice.getDocument(source: .cache)
        _ = try await alice.getDocument(source: .server)
        _ = try await alice.getDocument(source: .default)
        let _: [String: Int] = try await alice.getDocument(as: [String: Int].self)
        let _: [String: Int] = try await alice.getDocument(as: [String: Int].self, source: .cache)
        try await alice.setData(["a": 1])
        try await alice.setData(["a": 1], merge: true)
        try await alice.setData(["a": 1], mergeFields: ["a", FieldPath(["b"])])
        try await alice.setData(from: ["a": 1])
        try await alice.setData(from: ["a": 1], merge: true)
        try await alice.setData(from: ["a": 1], mergeFields: ["a"])
        let _: Timestamp = try await alice.setDataReturningServerTimestamp(from: ["a": 1])
        try await alice.updateData(["a": 1, FieldPath(["b"]): 2])
        try await alice.delete()

        // Snapshots.
        let _: DocumentReference = snapshot.reference
        let _: String = snapshot.documentID
        let _: Bool = snapshot.exists
        let _: Timestamp? = snapshot.createTime
        let _: Timestamp? = snapshot.updateTime
        let _: [String: Any]? = snapshot.data()
        let _: Any? = snapshot.get("a")
        let _: Any? = snapshot.get(FieldPath(["a"]))
        let _: Any? = snapshot["a"]
        let _: [String: Int] = try snapshot.data(as: [String: Int].self)
        let metadata: SnapshotMetadata = snapshot.metadata
        let _: Bool = metadata.isFromCache
        let _: Bool = metadata.hasPendingWrites
        let _: Bool = snapshot == snapshot

        // Queries and filters.
        let path = FieldPath(["a", "b"])
        let _: [String] = path.fieldNames
        let _: FieldPath = FieldPath.documentID()
        let _: String = path.description
        var query: Query = users.whereField("a", isEqualTo: 1)
        query = query.whereField(path, isEqualTo: 1).whereField("a", isNotEqualTo: 1).whereField(path, isNotEqualTo: 1)
        query = query.whereField("a", isLessThan: 1).whereField(path, isLessThan: 1)
        query = query.whereField("a", isLessThanOrEqualTo: 1).whereField(path, isLessThanOrEqualTo: 1)
        query = query.whereField("a", isGreaterThan: 1).whereField(path, isGreaterThan: 1)
        query = query.whereField("a", isGreaterThanOrEqualTo: 1).whereField(path, isGreaterThanOrEqualTo: 1)
        query = query.whereField("a", arrayContains: 1).whereField(path, arrayContains: 1)
        query = query.whereField("a", arrayContainsAny: [1]).whereField(path, arrayContainsAny: [1])
        query = query.whereField("a", in: [1]).whereField(path, in: [1])
        query = query.whereField("a", notIn: [1]).whereField(path, notIn: [1])
        let filters: [Filter] = [
            .whereField("a", isEqualTo: 1), .whereField(path, isEqualTo: 1),
            .whereField("a", isNotEqualTo: 1), .whereField(path, isNotEqualTo: 1),
            .whereField("a", isLessThan: 1), .whereField(path, isLessThan: 1),
            .whereField("a", isLessThanOrEqualTo: 1), .whereField(path, isLessThanOrEqualTo: 1),
            .whereField("a", isGreaterThan: 1), .whereField(path, isGreaterThan: 1),
            .whereField("a", isGreaterThanOrEqualTo: 1), .whereField(path, isGreaterThanOrEqualTo: 1),
            .whereField("a", arrayContains: 1), .whereField(path, arrayContains: 1),
            .whereField("a", arrayContainsAny: [1]), .whereField(path, arrayContainsAny: [1]),
            .whereField("a", in: [1]), .whereField(path, in: [1]),
            .whereField("a", notIn: [1]), .whereField(path, notIn: [1]),
        ]
        query = query.whereFilter(.orFilter(filters)).whereFilter(.andFilter(filters))
        query = query.order(by: "a").order(by: "a", descending: true).order(by: path).order(by: path, descending: false)
        query = query.limit(to: 1).limit(toLast: 1)
        query = query.start(at: [1]).start(after: [1]).end(at: [1]).end(before: [1])
        query = query.start(atDocument: snapshot).start(afterDocument: snapshot)
        query = query.end(atDocument: snapshot).end(beforeDocument: snapshot)
        let _: Firestore = group.firestore
        let results: QuerySnapshot = try await query.getDocuments()
        _ = try await query.getDocuments(source: .cache)
        let _: Query = results.query
        let _: [QueryDocumentSnapshot] = results.documents
        let _: Int = results.count
        let _: Bool = results.isEmpty
        let _: [String: Any] = results.documents[0].data()
        let changes: [DocumentChange] = results.documentChanges
        _ = results.documentChanges(includeMetadataChanges: true)
        let change = changes[0]
        let _: DocumentChange.ChangeType = change.type
        let _: QueryDocumentSnapshot = change.document
        let _: Int = change.oldIndex
        let _: Int = change.newIndex
        let _: [DocumentChange.ChangeType] = [.added, .modified, .removed]

        // Aggregations.
        let count: AggregateQuery = query.count
        let aggregate: AggregateQuery = query.aggregate([
            .count(), .sum("a"), .sum(path), .average("a"), .average(path),
        ])
        let _: Query = aggregate.query
        let _: [AggregateField] = aggregate.aggregations
        let aggregateSnapshot: AggregateQuerySnapshot = try await count.getAggregation(source: .server)
        let _: Int = aggregateSnapshot.count
        let _: Any? = aggregateSnapshot.get(.sum("a"))
        let _: AggregateQuery = aggregateSnapshot.query

        // Listeners.
        let documentSequence: DocumentSnapshotsSequence = alice.snapshots
        _ = alice.snapshots(includeMetadataChanges: true)
        for try await _ in documentSequence {}
        let querySequence: QuerySnapshotsSequence = query.snapshots
        _ = query.snapshots(includeMetadataChanges: true)
        for try await _ in querySequence {}
        let registration: any ListenerRegistration = alice.addSnapshotListener { _, _ in }
        _ = alice.addSnapshotListener(includeMetadataChanges: true) { _, _ in }
        _ = query.addSnapshotListener { _, _ in }
        _ = query.addSnapshotListener(includeMetadataChanges: true) { _, _ in }
        registration.remove()

        // Writes: field values, batches, transactions.
        let values: [FieldValue] = [
            .delete(), .serverTimestamp(), .increment(Int64(1)), .increment(1.5), .maximum(Int64(1)), .maximum(1.5),
            .minimum(Int64(1)), .minimum(1.5), .arrayUnion([1]), .arrayRemove([1]),
        ]
        _ = values.map(\.description)
        let batch: WriteBatch = db.batch()
        batch.setData(["a": 1], forDocument: alice).setData(["a": 1], forDocument: alice, merge: true)
            .setData(["a": 1], forDocument: alice, mergeFields: ["a"]).updateData(["a": 1], forDocument: alice)
            .deleteDocument(alice)
        try batch.setData(from: ["a": 1], forDocument: alice)
        try batch.setData(from: ["a": 1], forDocument: alice, merge: true)
        try await batch.commit()
        let _: Int = try await db.runTransaction { transaction in
            let _: DocumentSnapshot = try await transaction.getDocument(alice)
            transaction.setData(["a": 1], forDocument: alice).setData(["a": 1], forDocument: alice, merge: true)
                .setData(["a": 1], forDocument: alice, mergeFields: ["a"]).updateData(["a": 1], forDocument: alice)
                .deleteDocument(alice)
            try transaction.setData(from: ["a": 1], forDocument: alice)
            try transaction.setData(from: ["a": 1], forDocument: alice, merge: true)
            return 1
        }
        _ = try await db.runTransaction(maxAttempts: 1) { _ in }

        // Codable.
        let encoded: [String: Any] = try Firestore.Encoder().encode(["a": 1])
        let _: [String: Int] = try Firestore.Decoder().decode([String: Int].self, from: encoded)
        let _: [String: Int] = try Firestore.Decoder().decode([String: Int].self, from: encoded, in: alice)
        let _: CodingUserInfoKey = .documentReference
        var id = DocumentID<String>(wrappedValue: nil)
        id.wrappedValue = "x"
        var stamp = ServerTimestamp<Timestamp>(wrappedValue: nil)
        stamp.wrappedValue = Timestamp()
        _ = ServerTimestamp<Date>(wrappedValue: Date())
        var null = ExplicitNull<Int>(wrappedValue: nil)
        null.wrappedValue = 1
        _ = try String.wrap(alice)
        _ = try DocumentReference.wrap(alice)
        _ = try Date.wrap(Timestamp())
        _ = try Timestamp.unwrap(Timestamp())

        // Errors and shared types.
        let error = FirestoreError(.notFound, "missing")
        let _: FirestoreErrorCode = error.code
        let _: GeoPoint = try GeoPoint(latitude: 0, longitude: 0)
        let _: [FirestoreSource] = [.default, .server, .cache]
        let _: AggregateSource = .server
        await db.terminate()
    }
}
