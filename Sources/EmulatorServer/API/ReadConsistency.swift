import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation
import SwiftProtobuf

/// How a read chooses its snapshot: the newest, a read time, or a transaction (one the request
/// names or one it begins, whose id the first response returns).
struct ReadConsistency {
    var readTime: Timestamp?
    var transaction: TransactionID?
    var isNewTransaction = false

    /// Begins the transaction `newTransaction` asks for, if any.
    init(
        store: DocumentStore, transaction: Data? = nil, newTransaction: Google_Firestore_V1_TransactionOptions? = nil,
        readTime: Google_Protobuf_Timestamp? = nil
    ) throws {
        if let transaction { self.transaction = try TransactionID(proto: transaction) }
        if let newTransaction {
            self.transaction = try store.beginTransaction(TransactionOptions(proto: newTransaction))
            isNewTransaction = true
        }
        if let readTime { self.readTime = try Timestamp(proto: readTime) }
    }

    /// The transaction id to return in the first response (empty unless this read began one).
    var returnedTransaction: Data { isNewTransaction ? transaction?.proto ?? Data() : Data() }

    /// The time to read at: the read time asked for (`nil`: the newest), or in a transaction the
    /// transaction's (a read-only one's snapshot; `nil`, the newest, for a read-write one).
    func resolvedReadTime(in store: DocumentStore) throws -> Timestamp? {
        guard let transaction else { return readTime }
        return try store.readTime(of: transaction)
    }

    /// Reads documents at this consistency: in a transaction, through it (a read-write one
    /// locks them); otherwise at the read time.
    func documents(
        _ names: [DocumentName], in store: DocumentStore
    ) async throws -> (readTime: Timestamp, documents: [Document?]) {
        if let transaction { return try await store.documents(names, transaction: transaction) }
        return try store.documents(names, readTime: readTime)
    }
}
