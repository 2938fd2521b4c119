import DocumentModel

/// The mutation queue as the sync engine holds it: the batches the server has not acknowledged,
/// in order, and the local overlay of each document they touch.
///
/// An overlay is kept up to date as batches are queued, so a new write costs one application
/// whatever the queue's length: a listener sees a write at once even while the server is
/// hundreds of batches behind (the SDKs keep document overlays for the same reason). When a
/// document's overlay can no longer be extended (a batch that touched it left the queue, or its
/// cache entry changed), it is forgotten and computed again, from the cache entry and every
/// pending write to the document, when next asked for.
struct PendingWrites {
    /// The batches, oldest first.
    private(set) var batches: [MutationBatch]
    /// The documents pending writes touch, with how many of them touch each.
    private var writeCounts: [DocumentName: Int] = [:]
    /// The overlay over the cache entry, for documents whose overlay is known.
    private var overlays: [DocumentName: LocalOverlay] = [:]

    init(_ batches: [MutationBatch]) {
        self.batches = batches
        for batch in batches { count(batch, by: 1) }
    }

    var isEmpty: Bool { batches.isEmpty }
    var count: Int { batches.count }
    var first: MutationBatch? { batches.first }
    var last: MutationBatch? { batches.last }

    /// The documents pending writes touch.
    var names: Dictionary<DocumentName, Int>.Keys { writeCounts.keys }

    /// Whether a pending write touches `name`.
    func touches(_ name: DocumentName) -> Bool { writeCounts[name] != nil }

    /// Queues `batch` last, extending the known overlays of the documents it writes.
    mutating func append(_ batch: MutationBatch) {
        batches.append(batch)
        count(batch, by: 1)
        for write in batch.writes { overlays[write.name]?.apply(write, at: batch.localWriteTime) }
    }

    /// Drops the batch `batchID` (acknowledged or rejected); returns whether it was queued.
    @discardableResult
    mutating func remove(_ batchID: Int64) -> Bool {
        guard let index = batches.firstIndex(where: { $0.batchID == batchID }) else { return false }
        let batch = batches.remove(at: index)
        count(batch, by: -1)
        forget(batch.writes.map(\.name))
        return true
    }

    /// Forgets the overlays of `names`, whose cache entries changed.
    mutating func forget<Names: Sequence<DocumentName>>(_ names: Names) {
        for name in names { overlays[name] = nil }
    }

    /// `name`'s cache entry (`base`, read only when the overlay is not known) with every pending
    /// write to it applied.
    mutating func overlay(_ name: DocumentName, base: () throws -> Document?) rethrows -> LocalOverlay {
        if let known = overlays[name] { return known }
        var overlay = LocalOverlay(try base())
        guard touches(name) else { return overlay }
        for batch in batches {
            for write in batch.writes where write.name == name { overlay.apply(write, at: batch.localWriteTime) }
        }
        overlays[name] = overlay
        return overlay
    }

    private mutating func count(_ batch: MutationBatch, by delta: Int) {
        for write in batch.writes {
            let count = writeCounts[write.name, default: 0] + delta
            writeCounts[write.name] = count > 0 ? count : nil
        }
    }
}
