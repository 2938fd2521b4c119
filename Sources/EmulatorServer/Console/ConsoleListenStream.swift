import DocumentModel
import DocumentStore

/// `GET /ui/api/listen?database=projects/{p}/databases/{d}&path={path}`: a listener inside the
/// server, as the owner, sent as Server-Sent Events. A collection path listens to the first
/// `windowSize` documents of that collection by name (its direct documents only), a document
/// path to that document. The first event is `ready` with the documents, then each change is a
/// `change` event with `{"document": {...}}` or `{"deleted": "projects/..."}`.
struct ConsoleListenStream: Sendable {
    /// The most documents a collection's listener covers: the first page.
    static let windowSize = 50

    let store: DocumentStore
    let listener: ListenerStream

    /// Starts listening to `path` in `database`, so the first event reflects the data as of
    /// this request.
    ///
    /// - Throws: `.invalidArgument` for a bad database or path.
    init(store: DocumentStore, database: DatabaseID, path: ResourcePath) throws {
        self.store = store
        let target: ListenTarget
        if path.segments.count % 2 == 0 {
            guard !path.segments.isEmpty else {
                throw FirestoreError.invalidArgument("'path' must name a collection or a document")
            }
            target = .document(try DocumentName(database, path))
        } else {
            let parent = try ResourcePath(segments: Array(path.segments.dropLast()))
            target = .query(Query(
                database: database, parent: parent,
                structured: StructuredQuery(
                    from: .collection(path.segments[path.segments.count - 1]), limit: ConsoleListenStream.windowSize)))
        }
        listener = try store.listen(to: target)
    }

    /// The response: the listener's snapshots as events until the client leaves or the server
    /// stops, which cancels the listener.
    var eventStream: EventStream {
        EventStream { [store, listener] writer in
            defer { listener.cancel() }
            // Each snapshot after the first may run the collection's query again: on the store's
            // reader threads, never on Swift's cooperative ones.
            try await withTaskExecutorPreference(store.readerExecutor) {
                var isFirst = true
                for try await snapshot in listener {
                    if isFirst {
                        isFirst = false
                        let documents = JSONValue.array(snapshot.documents.map(RESTJSON.encode))
                        try await writer.send(
                            event: "ready", data: JSONValue.object([ConsoleJSON.member("documents", documents)]).serialized())
                        continue
                    }
                    for change in snapshot.changes {
                        let member =
                            change.kind == .removed
                            ? ConsoleJSON.member("deleted", .string(change.document.name.resourceName))
                            : ConsoleJSON.member("document", RESTJSON.encode(change.document))
                        try await writer.send(event: "change", data: JSONValue.object([member]).serialized())
                    }
                }
            }
        }
    }
}
