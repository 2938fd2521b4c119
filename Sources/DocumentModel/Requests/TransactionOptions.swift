/// What kind of transaction to begin, as in Firestore's `TransactionOptions`.
public enum TransactionOptions: Sendable, Hashable {
    /// Reads see one consistent snapshot and lock what they read; the commit applies writes
    /// atomically. `retrying` names the transaction this one retries, whose place in line
    /// (its age) it inherits, so a retried transaction is not starved by newer ones.
    case readWrite(retrying: TransactionID? = nil)
    /// Reads only, all at one read time (`nil`: the time the transaction begins).
    case readOnly(readTime: Timestamp? = nil)
}
