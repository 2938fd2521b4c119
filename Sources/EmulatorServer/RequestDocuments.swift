import Synchronization

/// The documents a request on a whole database names: a commit's, batch write's or `Write`
/// stream's writes, a batch get's documents. Such a request's log entry names the database (its
/// resource); the console shows these too and its path filter finds the request by them (a
/// `Write` stream's one entry, logged when the stream ends, lists its first writes).
///
/// `RequestRunner` makes one for each request of those methods and binds it to `current` while
/// the request runs; `FirestoreAPI` notes the names as it reads the request, before validating
/// them, so a request that fails still shows what it named.
///
/// ```swift
/// RequestDocuments.current?.note(request.documents)
/// ```
final class RequestDocuments: Sendable {
    /// The recorder of the request running in this task, if any.
    @TaskLocal static var current: RequestDocuments?

    /// The most names one request keeps; the count goes on (a batch write names up to 500).
    static let limit = 20

    private let state = Mutex<(names: [String], count: Int)>(([], 0))

    /// Notes `names`, keeping the first `limit` of the request's.
    func note(_ names: some Sequence<String>) {
        state.withLock { state in
            for name in names {
                if state.names.count < RequestDocuments.limit { state.names.append(name) }
                state.count += 1
            }
        }
    }

    /// The names kept, in the request's order, and how many the request named in all.
    var noted: (names: [String], count: Int) { state.withLock { $0 } }

    /// Whether requests of `method` on `path` name their documents in the body: gRPC's
    /// `Commit`, `BatchWrite`, `BatchGetDocuments` and `Write`, REST's `:commit`, `:batchWrite`
    /// and `:batchGet`.
    static func areNamed(method: String, path: String) -> Bool {
        switch method {
        case "Commit", "BatchWrite", "BatchGetDocuments", "Write":
            true
        case "POST":
            path.hasSuffix(":commit") || path.hasSuffix(":batchWrite") || path.hasSuffix(":batchGet")
        default:
            false
        }
    }
}
