import Foundation
import LevelDB
import Synchronization

/// Where one key lies in a buffer of keys stored back to back.
struct KeySpan: Sendable {
    var offset: UInt32
    var count: UInt32

    /// The key's bytes in `bytes`.
    func slice(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset) + Int(count)])
    }

    /// Sorts `spans` by the bytes they point to in `bytes`.
    static func sort(_ spans: inout [KeySpan], in bytes: [UInt8]) {
        bytes.withUnsafeBytes { bytes in
            spans.sort { compareBytes($0.slice(bytes), $1.slice(bytes)) < 0 }
        }
    }
}

/// The sorted runs an `IndexKeySorter` spills: one temporary file in the data folder, unlinked
/// as soon as it is made (it lives while it is open, and no crash leaves it behind), that keys
/// are appended to run after run and read back merged.
///
/// A run is sorted and written on a background queue while the loader fills its next buffer;
/// each key is stored as its length (4 bytes, little-endian) and its bytes.
final class SortedRunFile: Sendable {
    private struct State {
        var file: FileHandle?
        var end: UInt64 = 0
        /// The byte ranges of the runs written since the last reset.
        var runs: [Range<UInt64>] = []
        /// The first failure to write a run, reported by `waitForRuns`.
        var failure: (any Error)?
    }

    private let folder: String
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "hearth.bulk-load-sort", qos: .userInitiated)

    init(folder: String) {
        self.folder = folder
    }

    deinit { try? state.withLock { $0.file }?.close() }

    /// Sorts the keys `spans` point to in `bytes` and appends them as a run, on the background
    /// queue, after the runs handed over before; returns at once.
    func appendInBackground(_ bytes: [UInt8], _ spans: [KeySpan]) {
        queue.async { [self] in
            var spans = spans
            KeySpan.sort(&spans, in: bytes)
            state.withLock { state in
                guard state.failure == nil else { return }
                do {
                    try append(bytes, spans, to: &state)
                } catch {
                    state.failure = error
                }
            }
        }
    }

    /// Waits until every run handed over is written.
    ///
    /// - Throws: the first failure to make or write the file.
    func waitForRuns() throws {
        queue.sync {}
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Whether runs were handed over since the last reset.
    var hasRuns: Bool {
        queue.sync {}
        return state.withLock { !$0.runs.isEmpty || $0.failure != nil }
    }

    /// Calls `body` with every key of the written runs, merged into key order; call after
    /// `waitForRuns()`.
    ///
    /// - Throws: what `body` throws; a failure to read the file.
    func merge(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let (file, runs) = state.withLock { ($0.file, $0.runs) }
        guard let file else { return }
        var readers = runs.map { SortedRunReader(file: file, range: $0) }
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

    /// Forgets the runs, keeping the file (emptied) for the next ones.
    func reset() {
        queue.sync {}
        state.withLock { state in
            state.runs.removeAll()
            state.end = 0
            state.failure = nil
            if let file = state.file { try? file.truncate(atOffset: 0) }
        }
    }

    private func append(_ bytes: [UInt8], _ spans: [KeySpan], to state: inout State) throws {
        let file = try openedFile(&state)
        try file.seek(toOffset: state.end)
        let start = state.end
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 20)
        try bytes.withUnsafeBytes { bytes in
            for span in spans {
                withUnsafeBytes(of: span.count.littleEndian) { chunk.append(contentsOf: $0) }
                chunk.append(contentsOf: span.slice(bytes))
                if chunk.count >= 1 << 20 {
                    try file.write(contentsOf: chunk)
                    state.end += UInt64(chunk.count)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
        }
        try file.write(contentsOf: chunk)
        state.end += UInt64(chunk.count)
        state.runs.append(start..<state.end)
    }

    /// The file, made on first use and unlinked at once.
    private func openedFile(_ state: inout State) throws -> FileHandle {
        if let file = state.file { return file }
        let path = folder + "/bulk-load-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).sort"
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        state.file = file
        return file
    }
}

/// Reads one sorted run of a `SortedRunFile`, a key at a time, through a buffer.
private struct SortedRunReader {
    private let file: FileHandle
    private var next: UInt64
    private let end: UInt64
    private var buffer: [UInt8] = []
    private var position = 0
    /// The current key's range in `buffer`.
    private var key: Range<Int> = 0..<0

    init(file: FileHandle, range: Range<UInt64>) {
        self.file = file
        next = range.lowerBound
        end = range.upperBound
    }

    /// Moves to the next key; false at the end of the run.
    mutating func advance() throws -> Bool {
        guard try fill(4) else { return false }
        let count = (0..<4).reduce(0) { count, byte in count | Int(buffer[position + byte]) << (8 * byte) }
        position += 4
        guard try fill(count) else {
            throw CocoaError(
                .fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "A bulk load's sorted run ends inside a key"])
        }
        key = position..<position + count
        position += count
        return true
    }

    func withKey<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[key])) }
    }

    /// Makes sure `count` bytes from `position` are in the buffer; false if the run ends first.
    private mutating func fill(_ count: Int) throws -> Bool {
        if buffer.count - position >= count { return true }
        buffer.removeSubrange(0..<position)
        position = 0
        key = 0..<0
        while buffer.count < count, next < end {
            try file.seek(toOffset: next)
            let wanted = Int(min(UInt64(max(count - buffer.count, 1 << 17)), end - next))
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
