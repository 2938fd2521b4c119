import DocumentModel
import Foundation
import LevelDB

/// Sorts the index keys of a bulk load (`BulkLoader`) in bounded memory and hands them back in
/// key order, so that LevelDB receives them as an append.
///
/// Written as documents come, a load's index keys land all over the index table (an email, a
/// uid, a timestamp per document), and LevelDB's one compaction thread then rewrites them level
/// after level: at 1,000,000 documents the load waited on compaction for most of its time. In
/// key order, each table file LevelDB flushes follows the previous one, and compaction only moves
/// files down a level (BENCHMARKS.md, "Import in index-key order").
///
/// Keys are gathered back to back in one buffer of at most `memoryBytes`; a full buffer is
/// sorted and written as a run to a spill file, which is created in `folder` and unlinked at
/// once (nothing is left behind, even by a crash). `drain` merges the runs and the buffer.
final class IndexKeySorter {
    /// Where one key lies in `buffer`.
    private struct Span {
        var offset: UInt32
        var count: UInt32
    }

    private let folder: String
    private let memoryBytes: Int
    private var buffer: [UInt8] = []
    private var spans: [Span] = []
    private var spill: FileHandle?
    private var spillEnd: UInt64 = 0
    /// The byte ranges of the sorted runs in the spill file, since the last drain.
    private var runs: [Range<UInt64>] = []

    /// A sorter that keeps at most about `memoryBytes` of keys in memory and spills to a file
    /// in `folder` beyond that.
    init(folder: String, memoryBytes: Int) {
        self.folder = folder
        self.memoryBytes = max(memoryBytes, 1)
    }

    deinit { try? spill?.close() }

    /// Whether no key was added since the last drain.
    var isEmpty: Bool { spans.isEmpty && runs.isEmpty }

    /// Adds a copy of `key`.
    ///
    /// - Throws: `CocoaError` when the spill file cannot be made or written.
    func add(_ key: UnsafeRawBufferPointer) throws {
        if !spans.isEmpty, buffer.count + key.count > memoryBytes { try spillBuffer() }
        precondition(buffer.count + key.count <= UInt32.max, "IndexKeySorter: a key beyond 4 GiB")
        spans.append(Span(offset: UInt32(buffer.count), count: UInt32(key.count)))
        buffer.append(contentsOf: key)
    }

    /// Calls `body` with every key added since the last drain, in key order (a key added twice
    /// comes twice), each valid only during the call; the sorter is then empty again.
    ///
    /// - Throws: what `body` throws; `CocoaError` when the spill file cannot be read.
    func drain(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        defer { reset() }
        if runs.isEmpty {
            sortSpans()
            try buffer.withUnsafeBytes { bytes in
                for span in spans { try body(Self.slice(bytes, span)) }
            }
            return
        }
        if !spans.isEmpty { try spillBuffer() }
        guard let spill else { return }
        var readers = runs.map { SortedRunReader(file: spill, range: $0) }
        var heap = RunHeap()
        for index in readers.indices where try readers[index].advance() { heap.push(index, readers: readers) }
        while let index = heap.top {
            try readers[index].withKey(body)
            if try readers[index].advance() {
                heap.siftDownTop(readers: readers)
            } else {
                heap.popTop(readers: readers)
            }
        }
    }

    private func reset() {
        buffer.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        runs.removeAll()
        spillEnd = 0
        if let spill { try? spill.truncate(atOffset: 0) }
    }

    private static func slice(_ bytes: UnsafeRawBufferPointer, _ span: Span) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(span.offset)..<Int(span.offset) + Int(span.count)])
    }

    private func sortSpans() {
        buffer.withUnsafeBytes { bytes in
            spans.sort { compareBytes(Self.slice(bytes, $0), Self.slice(bytes, $1)) < 0 }
        }
    }

    /// Sorts the buffer's keys and appends them to the spill file as one run: each key as its
    /// length (4 bytes, little-endian) and its bytes.
    private func spillBuffer() throws {
        sortSpans()
        let file = try spillFile()
        let start = spillEnd
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 20)
        try buffer.withUnsafeBytes { bytes in
            for span in spans {
                withUnsafeBytes(of: span.count.littleEndian) { chunk.append(contentsOf: $0) }
                chunk.append(contentsOf: Self.slice(bytes, span))
                if chunk.count >= 1 << 20 {
                    try file.write(contentsOf: chunk)
                    spillEnd += UInt64(chunk.count)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
        }
        try file.write(contentsOf: chunk)
        spillEnd += UInt64(chunk.count)
        runs.append(start..<spillEnd)
        buffer.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    /// The spill file, made on first use and unlinked at once (it lives while it is open).
    private func spillFile() throws -> FileHandle {
        if let spill {
            try spill.seek(toOffset: spillEnd)
            return spill
        }
        let path = folder + "/bulk-load-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).sort"
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        spill = file
        return file
    }
}

/// Reads one sorted run of an `IndexKeySorter`'s spill file, a key at a time, through a buffer.
private struct SortedRunReader {
    private let file: FileHandle
    private var next: UInt64
    private let end: UInt64
    private var buffer: [UInt8] = []
    private var position = 0
    /// The current key's range in `buffer`.
    private(set) var key: Range<Int> = 0..<0

    init(file: FileHandle, range: Range<UInt64>) {
        self.file = file
        next = range.lowerBound
        end = range.upperBound
    }

    /// Moves to the next key; false at the end of the run.
    mutating func advance() throws -> Bool {
        guard try fill(4) else { return false }
        let count = buffer.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: position, as: UInt32.self))) }
        position += 4
        guard try fill(count) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "A bulk load's sort run ends inside a key"])
        }
        key = position..<position + count
        position += count
        return true
    }

    func withKey<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[key])) }
    }

    /// Makes sure `count` bytes from `position` are in the buffer; false if the run ends first
    /// (with no byte left, or else an error).
    private mutating func fill(_ count: Int) throws -> Bool {
        if buffer.count - position >= count { return true }
        buffer.removeSubrange(0..<position)
        position = 0
        key = 0..<0
        while buffer.count < count, next < end {
            try file.seek(toOffset: next)
            let wanted = Int(min(UInt64(max(count - buffer.count, 1 << 18)), end - next))
            guard let data = try file.read(upToCount: wanted), !data.isEmpty else { break }
            buffer.append(contentsOf: data)
            next += UInt64(data.count)
        }
        return buffer.count >= count
    }
}

/// A binary min-heap of run indexes, ordered by each run's current key.
private struct RunHeap {
    private var items: [Int] = []

    var top: Int? { items.first }

    private static func less(_ a: Int, _ b: Int, _ readers: [SortedRunReader]) -> Bool {
        readers[a].withKey { left in readers[b].withKey { right in compareBytes(left, right) < 0 } }
    }

    mutating func push(_ index: Int, readers: [SortedRunReader]) {
        items.append(index)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.less(items[child], items[parent], readers) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popTop(readers: [SortedRunReader]) {
        items.swapAt(0, items.count - 1)
        items.removeLast()
        siftDownTop(readers: readers)
    }

    /// Restores the order after the top's key changed.
    mutating func siftDownTop(readers: [SortedRunReader]) {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < items.count else { return }
            var smallest = left
            if left + 1 < items.count, Self.less(items[left + 1], items[left], readers) { smallest = left + 1 }
            guard Self.less(items[smallest], items[parent], readers) else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
