import DocumentModel
import QueryEngine

/// Runs a planned query: reads candidates, checks each document against the whole filter and
/// the ordered fields, puts them in the query's order, and applies cursors, offset and limit.
struct QueryExecutor {
    let query: PreparedQuery
    let reader: SnapshotReader
    let planned: PlannedQuery
    let ordering: QueryOrdering

    init(query: PreparedQuery, reader: SnapshotReader, planned: PlannedQuery) {
        self.query = query
        self.reader = reader
        self.planned = planned
        ordering = QueryOrdering(orders: query.orders)
    }

    /// Calls `emit` with each result in order until it returns false or the results end.
    func run(_ emit: (Document) throws -> Bool) throws {
        guard let nearest = query.nearest else { return try runInOrder(emit) }
        var matches: [Document] = []
        try runInOrder { document in
            matches.append(document)
            return true
        }
        for document in nearest.nearest(matches) {
            guard try emit(document) else { return }
        }
    }

    /// `run` for the query's own order (without a vector search).
    private func runInOrder(_ emit: (Document) throws -> Bool) throws {
        var window = ResultWindow(query: query, ordering: ordering)
        /// Offers documents in order; false once no more are wanted.
        func offer(_ documents: [Document]) throws -> Bool {
            let ordered = documents.count > 1 ? documents.sorted { ordering.compare($0, $1) < 0 } : documents
            for document in ordered {
                switch window.admit(document) {
                case .skip: continue
                case .stop: return false
                case .take: guard try emit(document), !window.isFull else { return false }
                }
            }
            return true
        }
        let source = try CandidateSources.make(planned.physical, reader: reader, scope: query.scope)
        var run: [Document] = []
        var runKey: ArraySlice<UInt8>?
        while let candidate = try source.next() {
            guard try passesNameFilters(candidate.path),
                let document = try candidate.document ?? reader.document(encodedPath: candidate.path),
                query.filter?.matches(document) ?? true, ordering.hasOrderedFields(document)
            else { continue }
            switch planned.arrival {
            case .inOrder:
                guard try offer([document]) else { return }
            case .inRunsOfFirstField:
                if candidate.runKey != runKey {
                    guard try offer(run) else { return }
                    run.removeAll(keepingCapacity: true)
                    runKey = candidate.runKey
                }
                run.append(document)
            case .unordered:
                run.append(document)
            }
        }
        _ = try offer(run)
    }

    /// The number of results, counting index keys without reading documents when the plan
    /// allows it (`countsIndexKeysOnly`), stopping at `upTo`.
    func count(upTo: Int64?) throws -> Int64 {
        let cap = upTo.map { min($0, Int64(query.limit ?? .max)) } ?? query.limit.map(Int64.init)
        if let cap, cap <= 0 { return 0 }
        var count: Int64 = 0
        guard planned.description.countsIndexKeysOnly, query.nearest == nil else {
            try run { _ in
                count += 1
                return cap.map { count < $0 } ?? true
            }
            return count
        }
        let source = try CandidateSources.make(planned.physical, reader: reader, scope: query.scope, readsDocuments: false)
        var skipped = 0
        while let candidate = try source.next() {
            guard try passesNameFilters(candidate.path) else { continue }
            if skipped < query.offset {
                skipped += 1
                continue
            }
            count += 1
            if let cap, count >= cap { break }
        }
        return count
    }

    /// Checks the plan's `__name__` filters on an encoded path, before reading the document.
    private func passesNameFilters(_ path: [UInt8]) throws -> Bool {
        guard !planned.namePredicates.isEmpty else { return true }
        let reference = NamePaths.referencePrefix(query.scope.database) + path
        return planned.namePredicates.allSatisfy { $0.ranges.contains(reference) }
    }
}
