import DocumentModel
import DocumentStore
import FirestoreWire

/// `GET /ui/api/listen?database=projects/{p}/databases/{d}&path={path}`: a listener inside the
/// server, as the owner, sent as Server-Sent Events. A collection path listens to that
/// collection's direct documents, a document path to that document.
///
/// The first event is `ready` with the documents (for a collection, its first `pageSize` by
/// name), then each change of one of the target's documents is a `change` event with
/// `{"document": {...}}` or `{"deleted": "projects/..."}`. The changes come from a
/// `DocumentChangeFeed`, so a commit costs the same whatever the collection's size; should the
/// client fall too far behind for the feed, a new `ready` event is sent instead of the changes
/// it missed.
struct ConsoleListenStream: Sendable {
    /// The most documents the `ready` event of a collection carries: the first page.
    static let pageSize = 50

    /// What is listened to.
    private enum Target {
        case document(DocumentName)
        case collection(parent: ResourcePath, collectionID: String)
    }

    private let store: DocumentStore
    private let database: DatabaseID
    private let target: Target
    private let feed: DocumentChangeFeed

    /// Starts listening to `path` in `database`, so no change after this request is missed.
    ///
    /// - Throws: `.invalidArgument` for a bad path.
    init(store: DocumentStore, database: DatabaseID, path: ResourcePath) throws {
        guard !path.segments.isEmpty else {
            throw FirestoreError.invalidArgument("'path' must name a collection or a document")
        }
        self.store = store
        self.database = database
        if path.segments.count % 2 == 0 {
            let name = try DocumentName(database, path)
            target = .document(name)
            feed = try store.changeFeed(for: .document(name))
        } else {
            let parent = try ResourcePath(segments: Array(path.segments.dropLast()))
            let collectionID = path.segments[path.segments.count - 1]
            target = .collection(parent: parent, collectionID: collectionID)
            feed = try store.changeFeed(
                for: .query(Query(database: database, parent: parent, structured: StructuredQuery(from: .collection(collectionID)))))
        }
    }

    /// The response: `ready`, then the changes, until the client leaves or the server stops,
    /// which cancels the feed.
    var eventStream: EventStream {
        EventStream { [self] writer in
            defer { feed.cancel() }
            // Reads block on LevelDB: on the store's reader threads, never on Swift's cooperative ones.
            try await withTaskExecutorPreference(store.readerExecutor) {
                var readVersion = try await sendReady(writer)
                while let batch = await feed.next() {
                    if batch.overflowed {
                        readVersion = try await sendReady(writer)
                        continue
                    }
                    for commit in batch.commits where commit.version > readVersion {
                        for change in commit.changes {
                            try await writer.send(event: "change", data: ConsoleListenStream.changeJSON(change))
                        }
                    }
                }
            }
        }
    }

    /// Reads the target and sends it as the `ready` event.
    ///
    /// - Returns: the version read: later commits are changes to send.
    private func sendReady(_ writer: EventStreamWriter) async throws -> Int64 {
        let documents: [Document]
        let readTime: Timestamp
        switch target {
        case .document(let name):
            let read = try store.documents([name])
            (documents, readTime) = (read.documents.compactMap { $0 }, read.readTime)
        case .collection(let parent, let collectionID):
            let page = try store.listDocuments(
                parent: parent, collectionID: collectionID, of: database, pageSize: ConsoleListenStream.pageSize)
            documents = page.documents.compactMap { if case .document(let document) = $0 { document } else { nil } }
            readTime = page.readTime
        }
        let json = JSONValue.object([ConsoleJSON.member("documents", .array(documents.map(RESTJSON.encode)))])
        try await writer.send(event: "ready", data: json.serialized())
        return readTime.microsecondsSinceEpoch
    }

    /// `{"document": {...}}` for a document written, `{"deleted": name}` for one deleted.
    private static func changeJSON(_ change: DocumentChangeRecord) -> String {
        let member =
            if let after = change.after {
                ConsoleJSON.member("document", RESTJSON.encode(after))
            } else {
                ConsoleJSON.member("deleted", .string(change.name.resourceName))
            }
        return JSONValue.object([member]).serialized()
    }
}
