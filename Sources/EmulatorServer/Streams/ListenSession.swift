import DocumentModel
import DocumentStore
import FirestoreProto
import FirestoreWire
import Foundation
import QueryEngine
import SecurityRules

/// One `Listen` stream: adds and removes the client's targets, each backed by store listeners
/// opened as the caller (so security rules judge them), and turns their snapshots into
/// Firestore's watch protocol.
///
/// For each target the client sees `ADD`, then its documents (`DocumentChange`, and
/// `DocumentDelete` for a named document that does not exist), an `ExistenceFilter` when it
/// resumed from a token or read time, and `CURRENT` with the target's resume token. Later
/// changes arrive as they are committed: `DocumentChange` for a document added or modified,
/// `DocumentDelete` for one deleted, `DocumentRemove` for one that left a query. Every batch
/// ends with the global `NO_CHANGE` (no target ids, a read time), the point at which clients
/// raise a snapshot. A target that fails (a rules denial, an invalid query) is answered with
/// `REMOVE` and a cause; the stream goes on.
///
/// The session's state is touched only by `answer(_:)` and `stop()`, which its
/// `ListenStreamDriver` calls one at a time. Teardown (the client leaves, the stream fails, the
/// server stops) stops every store listener.
final class ListenSession {
    private let store: DocumentStore
    private let identity: RequestIdentity
    /// Tells the driver a target's part may have a snapshot ready. Called on committing threads.
    private let post: @Sendable (ListenEvent) -> Void
    /// The stream's database, from its first request.
    private var database: DatabaseID?
    private var targets: [Int32: ActiveWatchTarget] = [:]
    private var nextSerial = 0
    private var lastAssignedID: Int32 = 0
    /// The read time of the last consistent point sent (they never go backwards).
    private var lastGlobalVersion: Int64 = 0

    init(store: DocumentStore, identity: RequestIdentity, post: @escaping @Sendable (ListenEvent) -> Void) {
        self.store = store
        self.identity = identity
        self.post = post
    }

    /// The responses to a batch of events, and how the stream ends if it does: the responses
    /// to write first (none when the client left or the stream was cancelled).
    ///
    /// - Throws: `FirestoreError` for a malformed request (the stream ends with its status).
    func answer(_ batch: [ListenEvent]) throws -> (responses: [Google_Firestore_V1_ListenResponse], end: StreamEnd?) {
        var responses: [Google_Firestore_V1_ListenResponse] = []
        var changed = false
        for event in batch {
            switch try handle(event, into: &responses, changed: &changed) {
            case .serving: continue
            case .finished: return (responses, .closed)
            case .clientLeft: return ([], .closed)
            case .cancelled: return ([], .cancelled)
            }
        }
        if changed, let point = consistentPoint() { responses.append(point) }
        return (responses, nil)
    }

    /// Where the stream is after an event.
    private enum Progress {
        case serving
        /// The client closed its side: answer what is pending, then end.
        case finished
        /// The client went away: nobody reads any more.
        case clientLeft
        /// The RPC was cancelled.
        case cancelled
    }

    private func handle(
        _ event: ListenEvent, into responses: inout [Google_Firestore_V1_ListenResponse], changed: inout Bool
    ) throws -> Progress {
        switch event {
        case .client(.request(let request)):
            try handle(request, into: &responses)
        case .client(.ended):
            return .finished
        case .client(.failed(let error)):
            if ClientInput<Google_Firestore_V1_ListenRequest>.isDeparture(error) { return .clientLeft }
            throw error
        case .client(.cancelled):
            return .cancelled
        case .ready(let serial, let part):
            guard let id = targetID(serial: serial), let stream = targets[id]?.streams[part] else { return .serving }
            let ready: ListenerStream.ReadySnapshot
            do {
                // On the store's reader threads, as the whole stream: it may run the target's query again.
                ready = try stream.takeReady()
            } catch {
                targets.removeValue(forKey: id)?.stop()
                responses.append(.targetChange(.remove, [id], cause: WireStatus(error)))
                return .serving
            }
            switch ready {
            case .snapshot(let snapshot):
                try apply(snapshot, part: part, to: id, into: &responses)
                changed = true
            case .unchanged:
                break
            case .ended:
                // Not stopped by this session: the store is closing.
                throw FirestoreError(.unavailable, "The server is shutting down; listen again")
            }
        }
        return .serving
    }

    private func handle(
        _ request: Google_Firestore_V1_ListenRequest, into responses: inout [Google_Firestore_V1_ListenResponse]
    ) throws {
        let database = try streamDatabase(request)
        switch request.targetChange {
        case nil:
            throw FirestoreError.invalidArgument("A ListenRequest must set add_target or remove_target")
        case .removeTarget(let id):
            // Google's emulator answers the removal of an unknown target with nothing.
            guard let target = targets.removeValue(forKey: id) else { return }
            target.stop()
            responses.append(.targetChange(.remove, [id]))
        case .addTarget(let proto):
            let id = try newTargetID(proto.targetID)
            responses.append(.targetChange(.add, [id]))
            do {
                try open(WatchTarget(proto, in: database), id: id)
            } catch {
                responses.append(.targetChange(.remove, [id], cause: WireStatus(error)))
            }
        }
    }

    /// The stream's database: the first request's (an empty `database` on a later request
    /// means the same one).
    private func streamDatabase(_ request: Google_Firestore_V1_ListenRequest) throws -> DatabaseID {
        if let database {
            guard request.database.isEmpty || request.database == database.resourceName else {
                throw FirestoreError.invalidArgument(
                    "Request specified a database (\(request.database)) that did not match the expected database "
                        + "(\(database.resourceName))")
            }
            return database
        }
        guard !request.database.isEmpty else {
            throw FirestoreError.invalidArgument("'database' must be set on the first request of a Listen stream")
        }
        let parsed = try ResourceName.database(request.database)
        database = parsed
        return parsed
    }

    /// The id of a new target: the client's, or (for 0) the next one free, as Google's
    /// emulator assigns them.
    private func newTargetID(_ requested: Int32) throws -> Int32 {
        if requested != 0 {
            guard targets[requested] == nil else {
                throw FirestoreError.invalidArgument("Target ID \(requested) is already in use on this stream")
            }
            return requested
        }
        repeat { lastAssignedID &+= 1 } while lastAssignedID == 0 || targets[lastAssignedID] != nil
        return lastAssignedID
    }

    /// Opens the store listeners of `target`. Nothing waits on them: each tells the driver when
    /// it has something (its first snapshot at once), and the session takes it then.
    private func open(_ target: WatchTarget, id: Int32) throws {
        var streams: [ListenerStream] = []
        do {
            for part in target.parts {
                streams.append(try store.listen(to: part, resumeToken: target.resumeVersion, as: identity))
            }
        } catch {
            for stream in streams { stream.cancel() }
            throw error
        }
        nextSerial += 1
        let serial = nextSerial
        targets[id] = ActiveWatchTarget(id: id, serial: serial, target: target, streams: streams)
        for (part, stream) in streams.enumerated() {
            stream.onReady { [post] in post(.ready(serial: serial, part: part)) }
        }
    }

    private func targetID(serial: Int) -> Int32? {
        targets.first { $0.value.serial == serial }?.key
    }

    /// Sends a part's snapshot: its first one (the part's state), or a change.
    private func apply(
        _ snapshot: ListenSnapshot, part: Int, to id: Int32, into responses: inout [Google_Firestore_V1_ListenResponse]
    ) throws {
        guard var active = targets[id] else { return }
        let isFirst = !active.hasDelivered(part)
        if isFirst, snapshot.isReset, active.target.asksToResume, !active.wasReset {
            active.wasReset = true
            responses.append(.targetChange(.reset, [id]))
        }
        responses += try changeMessages(snapshot, of: active.target, part: part, id: id, isFirst: isFirst)
        active.record(snapshot, part: part)
        if !active.isCurrent {
            guard active.hasInitialState else {
                targets[id] = active
                return
            }
            if active.target.asksToResume && !active.wasReset {
                responses.append(.existenceFilter(targetID: id, count: active.documentCount))
            }
            responses.append(
                .targetChange(
                    .current, [id], resumeToken: ListenResumeToken.encode(active.resumeVersion),
                    readTime: ListenResumeToken.readTime(active.readVersion)))
            active.isCurrent = true
            if active.target.once {
                active.stop()
                targets[id] = nil
                responses.append(.targetChange(.remove, [id]))
                return
            }
        } else if targets.count > 1 {
            responses.append(
                .targetChange(.noChange, [id], resumeToken: ListenResumeToken.encode(active.resumeVersion)))
        }
        targets[id] = active
    }

    /// The document messages of a snapshot.
    private func changeMessages(
        _ snapshot: ListenSnapshot, of target: WatchTarget, part: Int, id: Int32, isFirst: Bool
    ) throws -> [Google_Firestore_V1_ListenResponse] {
        var messages: [Google_Firestore_V1_ListenResponse] = []
        var removed: [DocumentName] = []
        for change in snapshot.changes {
            switch change.kind {
            case .added, .modified: messages.append(.documentChange(change.document, targetID: id))
            case .removed: removed.append(change.document.name)
            }
        }
        // Google's emulator reports a watched document that does not exist as deleted.
        if case .documents = target.kind, isFirst, snapshot.isReset, snapshot.documents.isEmpty,
            case .document(let name) = target.parts[part]
        {
            removed.append(name)
        }
        guard !removed.isEmpty else { return messages }
        let readTime = ListenResumeToken.readTime(snapshot.resumeToken)
        let stillExists = try existing(removed, in: target, at: snapshot.readTime)
        for name in removed {
            messages.append(
                stillExists.contains(name)
                    ? .documentRemove(name, targetID: id, readTime: readTime)
                    : .documentDelete(name, targetID: id, readTime: readTime))
        }
        return messages
    }

    /// Which of `names`, removed from a query target, still exist at `readTime` (those left
    /// the query rather than being deleted).
    private func existing(_ names: [DocumentName], in target: WatchTarget, at readTime: Timestamp) throws
        -> Set<DocumentName>
    {
        guard case .query = target.kind else { return [] }
        let documents = try store.documents(names, readTime: readTime).documents
        return Set(documents.compactMap { $0?.name })
    }

    /// The global `NO_CHANGE` once every target is current: the read time the client raises
    /// its snapshot at, with the resume token when the stream has one target (with several,
    /// each target's token went out with its own changes).
    private func consistentPoint() -> Google_Firestore_V1_ListenResponse? {
        guard !targets.isEmpty, targets.values.allSatisfy(\.isCurrent) else { return nil }
        lastGlobalVersion = max(lastGlobalVersion, targets.values.map(\.readVersion).max() ?? 0)
        let token = targets.count == 1 ? targets.values.first.map { ListenResumeToken.encode($0.resumeVersion) } : nil
        return .targetChange(
            .noChange, [], resumeToken: token, readTime: ListenResumeToken.readTime(lastGlobalVersion))
    }

    /// Stops every target's store listeners.
    func stop() {
        for target in targets.values { target.stop() }
        targets = [:]
    }
}
