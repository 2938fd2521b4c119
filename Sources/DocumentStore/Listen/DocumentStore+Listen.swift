public import DocumentModel
import QueryEngine
import Synchronization

extension DocumentStore {
    /// Starts listening to a document or a query.
    ///
    /// The first snapshot is the target's full state; each later one reflects one or more
    /// whole commits (never part of one) with the changes since the previous snapshot. With a
    /// `resumeToken` from an earlier snapshot, the first snapshot carries exactly the changes
    /// made since that token; a token older than the retention window gives a reset (the full
    /// state, `isReset`). See `Listener` for the buffering policy: a slow consumer never holds
    /// up writers or other listeners.
    ///
    /// Listening as `identity` is a read, allowed by the rules' `get` for a document and `list`
    /// for a query; the admin (the default) is not judged.
    ///
    /// - Throws: `.invalidArgument` for a query Firestore refuses, `.permissionDenied` naming the
    ///   rules evaluated when `identity` may not read the target.
    public func listen(to target: ListenTarget, resumeToken: Int64? = nil, as identity: RequestIdentity = .admin)
        throws -> ListenerStream
    {
        if !identity.isAdmin {
            switch target {
            case .document(let name):
                _ = try document(name, as: identity)
            case .query(let query):
                try authorize(query, as: identity)
            }
        }
        let prepared: PreparedQuery? =
            if case .query(let query) = target { try QueryValidator.prepare(query) } else { nil }
        let listener = listeners.register(target, prepared: prepared)
        var baseline: [Document]?
        var baselineVersion = lastCommittedVersion.load(ordering: .acquiring)
        if let resumeToken, resumeToken > 0 {
            do {
                let time = Timestamp(microsecondsSinceEpoch: min(resumeToken, baselineVersion))
                baseline = try result(of: target, readTime: time).documents
                baselineVersion = time.microsecondsSinceEpoch
            } catch let error as FirestoreError where error.code == .failedPrecondition {
                baseline = nil
            }
        }
        return ListenerStream(
            registration: ListenerRegistration(
                store: self, listener: listener, baseline: baseline, baselineVersion: baselineVersion))
    }

    /// The number of listeners registered now.
    public var listenerCount: Int { listeners.registeredCount }

    /// The target's documents and the version they reflect, now.
    func currentResult(of listener: Listener) throws -> (documents: [Document], version: Int64) {
        let result = try result(of: listener.target, readTime: nil)
        return (result.documents, result.readTime.microsecondsSinceEpoch)
    }

    private func result(of target: ListenTarget, readTime: Timestamp?) throws -> QueryResult {
        switch target {
        case .document(let name):
            let read = try documents([name], readTime: readTime)
            return QueryResult(readTime: read.readTime, documents: read.documents.compactMap { $0 })
        case .query(let query):
            return try runQuery(query, readTime: readTime)
        }
    }

    /// Publishes a commit to the listeners it affects (called under the commit lock, after the
    /// commit is durable, so in commit order).
    func publish(_ changes: @autoclosure () -> [DocumentChangeRecord], version: Int64) {
        guard !listeners.isEmpty else { return }
        listeners.publish(CommitEvent(version: version, changes: changes()))
    }
}
