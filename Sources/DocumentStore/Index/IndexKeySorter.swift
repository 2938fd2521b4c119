/// Sorts the index keys of a bulk load (`BulkLoader`) in bounded memory and hands them back in
/// key order, so that LevelDB receives them as an append.
///
/// Written as documents come, a load's index keys land all over the index table (an email, a
/// uid, a timestamp per document), and LevelDB's one compaction thread then rewrites them level
/// after level. In key order, each table file LevelDB flushes follows the previous one, and
/// compaction mostly moves files down a level (BENCHMARKS.md, "Import in index-key order").
///
/// Keys are gathered back to back in a buffer of half of `memoryBytes`; a full buffer is handed
/// to a `SortedRunFile`, which sorts and writes it as a run in the background while the next
/// buffer fills. `drain` merges the runs and the last buffer.
final class IndexKeySorter {
    private let bufferBytes: Int
    private var buffer: [UInt8] = []
    private var spans: [KeySpan] = []
    private let runs: SortedRunFile

    /// A sorter that keeps at most about `memoryBytes` of keys in memory and spills sorted runs
    /// to a temporary file in `folder` beyond that.
    init(folder: String, memoryBytes: Int) {
        bufferBytes = max(memoryBytes / 2, 1)
        runs = SortedRunFile(folder: folder)
    }

    /// Whether no key was added since the last drain.
    var isEmpty: Bool { spans.isEmpty && !runs.hasRuns }

    /// Adds a copy of `key`.
    ///
    /// - Throws: a failure to make or write the temporary file.
    func add(_ key: UnsafeRawBufferPointer) throws {
        if !spans.isEmpty, buffer.count + key.count > bufferBytes { try spill() }
        precondition(buffer.count + key.count <= UInt32.max, "IndexKeySorter: a key beyond 4 GiB")
        spans.append(KeySpan(offset: UInt32(buffer.count), count: UInt32(key.count)))
        buffer.append(contentsOf: key)
    }

    /// Calls `body` with every key added since the last drain, in key order (a key added twice
    /// comes twice), each valid only during the call; the sorter is then empty again.
    ///
    /// - Throws: what `body` throws; a failure to write or read the temporary file.
    func drain(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        defer {
            buffer.removeAll(keepingCapacity: true)
            spans.removeAll(keepingCapacity: true)
            runs.reset()
        }
        guard runs.hasRuns else {
            KeySpan.sort(&spans, in: buffer)
            try buffer.withUnsafeBytes { bytes in
                for span in spans { try body(span.slice(bytes)) }
            }
            return
        }
        if !spans.isEmpty { try spill() }
        try runs.waitForRuns()
        try runs.merge(body)
    }

    /// Hands the buffer to the run file (after the run before it is written, so that at most
    /// two buffers exist) and starts a new one.
    private func spill() throws {
        try runs.waitForRuns()
        runs.appendInBackground(buffer, spans)
        buffer = []
        buffer.reserveCapacity(bufferBytes)
        spans = []
    }
}
