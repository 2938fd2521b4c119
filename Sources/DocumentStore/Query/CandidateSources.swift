import DocumentModel
import QueryEngine

/// A document a plan proposes: its encoded path, the encoded value of the first ordered field
/// for field-ordered scans (`runKey`), and the document itself when the source read it.
struct Candidate {
    let path: [UInt8]
    var runKey: ArraySlice<UInt8>?
    var document: Document?
}

/// Produces a plan's candidates.
protocol CandidateSource: AnyObject {
    func next() throws -> Candidate?
}

/// Builds the sources of physical plans.
enum CandidateSources {
    /// The source of `plan`'s candidates; without `readsDocuments` (a count) a document scan
    /// does not decode the documents it finds.
    static func make(
        _ plan: PhysicalPlan, reader: SnapshotReader, scope: QueryScope, readsDocuments: Bool = true
    ) throws -> any CandidateSource {
        switch plan {
        case .empty:
            return ListSource([])
        case .nameOrdered(let sets, let direction, let bounds):
            let forward = direction == .ascending
            let streams: [any NameOrderedStream] = try sets.map { set in
                let points: [any NameOrderedStream] = try set.ranges.intervals.map { interval in
                    let scan = try IndexRangeScan(
                        reader, scope: scope, field: set.field, kind: set.kind,
                        ranges: .between(interval.lower, interval.upper),
                        pathBounds: bounds, direction: direction)
                    return PointStream(scan, forward: forward)
                }
                return points.count == 1 ? points[0] : UnionStream(points, forward: forward)
            }
            return StreamSource(streams.count == 1 ? streams[0] : IntersectionStream(streams, forward: forward))
        case .fieldOrdered(let field, let ranges, let direction):
            return FieldScanSource(
                try IndexRangeScan(reader, scope: scope, field: field, kind: .value, ranges: ranges, direction: direction))
        case .documentScan(let bounds):
            return try DocumentScanSource(reader, scope: scope, bounds: bounds, readsDocuments: readsDocuments)
        case .union(let plans):
            var paths = Set<[UInt8]>()
            for plan in plans {
                let source = try make(plan, reader: reader, scope: scope)
                while let candidate = try source.next() { paths.insert(candidate.path) }
            }
            return ListSource(paths.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }
}

/// Paths from a name-ordered stream.
private final class StreamSource: CandidateSource {
    private let stream: any NameOrderedStream

    init(_ stream: any NameOrderedStream) { self.stream = stream }

    func next() throws -> Candidate? {
        try stream.next().map { Candidate(path: $0) }
    }
}

/// Entries of a field-ordered scan, with their values as run keys.
private final class FieldScanSource: CandidateSource {
    private let scan: IndexRangeScan

    init(_ scan: IndexRangeScan) { self.scan = scan }

    func next() throws -> Candidate? {
        try scan.next() ? Candidate(path: scan.path, runKey: scan.value) : nil
    }
}

/// Paths collected beforehand.
private final class ListSource: CandidateSource {
    private var iterator: IndexingIterator<[[UInt8]]>

    init(_ paths: [[UInt8]]) { iterator = paths.makeIterator() }

    func next() throws -> Candidate? {
        iterator.next().map { Candidate(path: $0) }
    }
}
