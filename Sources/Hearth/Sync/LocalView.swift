import DocumentModel
import QueryEngine

/// One listened target inside the sync engine: what its consumer was last shown, and what the
/// server last said about it.
struct LocalView {
    let target: ListenTarget
    /// The query's evaluation over cached documents; `nil` for a document target.
    let query: QueryView?
    /// Whether a change can be folded into the current documents without reading the cache
    /// again: a query without projection, offset or limit.
    let isIncremental: Bool
    /// The key of the target's record in the local store.
    let targetKey: String
    let mailbox: ViewMailbox
    /// The documents of the view now, in the query's order.
    var documents: [LocalDocument] = []
    /// Whether the view's document target has pending writes (a pending delete included).
    var documentHasPendingWrites = false
    /// The documents in the server's target at its last consistent snapshot, and its time.
    var members: Set<DocumentName> = []
    var snapshotReadTime: Timestamp?
    /// Whether the server's target is current and connected.
    var isCurrent = false
    /// What the consumer was last handed; `nil` before the first state.
    var published: ViewState?
    /// The task following the server's target, while the network is enabled.
    var watch: Task<Void, Never>?
    /// Documents being looked up because the view shows them and the server's target does not.
    var resolving: Set<DocumentName> = []

    init(target: ListenTarget, mailbox: ViewMailbox) throws {
        self.target = target
        self.mailbox = mailbox
        switch target {
        case .document(let name):
            query = nil
            isIncremental = false
            targetKey = "document:" + name.resourceName
        case .query(let model):
            query = try QueryView(model)
            let structured = model.structured
            isIncremental = structured.select == nil && structured.limit == nil && structured.offset == 0
            targetKey = "query:" + model.targetKey
        }
    }

    /// The state to hand the consumer, given whether the network is enabled. As in the SDKs,
    /// a view is from the cache until its target is current and no limbo document of it is
    /// still being looked up.
    func state(networkEnabled: Bool) -> ViewState {
        let pending = query == nil ? documentHasPendingWrites : documents.contains(where: \.hasPendingWrites)
        return ViewState(
            documents: documents, isFromCache: !isCurrent || !networkEnabled || !resolving.isEmpty,
            hasPendingWrites: pending)
    }
}
