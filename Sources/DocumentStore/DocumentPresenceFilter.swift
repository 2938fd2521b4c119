import Foundation
import LevelDB
import Synchronization

/// A Bloom filter of every document the store holds a version of, so that reading a document
/// that cannot exist (the document of nearly every create) costs no LevelDB seek.
///
/// A prefix scan cannot use LevelDB's own bloom filters (they serve exact-key gets), and a
/// seek for an absent document visits every level of the tree; that seek was most of the cost
/// of a create.
///
/// - The filter holds hashes of documents-table key prefixes (everything but the version), so
///   it answers "definitely absent" or "maybe present"; a false "maybe" only costs the seek.
/// - It is filled at open by a background scan of the documents table and by every commit
///   that creates a document. Until the scan finishes it answers "maybe" for everything, so the
///   store is correct from the first moment.
/// - It grows by adding segments of twice the capacity (a scalable Bloom filter), so it never
///   needs a rescan. Deleted and collected documents stay in it, which is harmless.
///
/// Memory: about 10 bits per document (1.2 MiB per million documents), for a false-positive
/// rate near 1%.
final class DocumentPresenceFilter: Sendable {
    private struct Segment {
        var words: [UInt64]
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            words = Array(repeating: 0, count: max(1, capacity * DocumentPresenceFilter.bitsPerDocument / 64))
        }

        mutating func insert(_ hash: UInt64) {
            let bitCount = UInt64(words.count * 64)
            var probe = hash
            let step = (hash >> 32) | 1
            for _ in 0..<DocumentPresenceFilter.probes {
                let bit = probe % bitCount
                words[Int(bit / 64)] |= 1 << (bit % 64)
                probe &+= step
            }
            count += 1
        }

        func mayContain(_ hash: UInt64) -> Bool {
            let bitCount = UInt64(words.count * 64)
            var probe = hash
            let step = (hash >> 32) | 1
            for _ in 0..<DocumentPresenceFilter.probes {
                let bit = probe % bitCount
                if words[Int(bit / 64)] & (1 << (bit % 64)) == 0 { return false }
                probe &+= step
            }
            return true
        }
    }

    private struct State {
        var segments: [Segment]
        var isComplete = false
    }

    private static let bitsPerDocument = 10
    private static let probes = 7
    private static let initialCapacity = 1 << 16

    private let state = Mutex(State(segments: [Segment(capacity: DocumentPresenceFilter.initialCapacity)]))
    private let cancelled = Atomic<Bool>(false)
    private let scanFinished = DispatchSemaphore(value: 0)

    /// Starts the background scan of `database`'s documents table.
    init(scanning database: Database) {
        let thread = Thread { [self] in
            defer { scanFinished.signal() }
            try? scan(database)
        }
        thread.name = "hearth-presence-scan"
        thread.start()
    }

    /// Whether a document with this documents-table key prefix may have a stored version.
    func mayContain(keyPrefix: UnsafeRawBufferPointer) -> Bool {
        let hash = DocumentPresenceFilter.hash(keyPrefix)
        return state.withLock { state in
            guard state.isComplete else { return true }
            return state.segments.contains { $0.mayContain(hash) }
        }
    }

    /// Records documents (by their documents-table key prefix) that now have a stored version.
    func insert(keyPrefixes: some Sequence<[UInt8]>) {
        var prefixes = keyPrefixes.makeIterator()
        guard let first = prefixes.next() else { return }
        state.withLock { state in
            var prefix: [UInt8]? = first
            while let next = prefix {
                DocumentPresenceFilter.insert(next.withUnsafeBytes(DocumentPresenceFilter.hash), into: &state)
                prefix = prefixes.next()
            }
        }
    }

    /// Stops the background scan and waits for it, so the database can close.
    func stop() {
        cancelled.store(true, ordering: .relaxed)
        scanFinished.wait()
        scanFinished.signal()
    }

    private static func insert(_ hashes: [UInt64], into state: inout State) {
        for hash in hashes { insert(hash, into: &state) }
    }

    private static func insert(_ hash: UInt64, into state: inout State) {
        if state.segments[state.segments.count - 1].count >= state.segments[state.segments.count - 1].capacity {
            state.segments.append(Segment(capacity: state.segments[state.segments.count - 1].capacity * 2))
        }
        state.segments[state.segments.count - 1].insert(hash)
    }

    private func scan(_ database: Database) throws {
        let cursor = try database.makeCursor(options: ReadOptions(fillCache: false))
        let tag = StorageKeys.Table.documents.rawValue
        cursor.seek(to: [tag])
        var batch: [UInt64] = []
        batch.reserveCapacity(4096)
        var previous: UInt64?
        while cursor.isValid, !cancelled.load(ordering: .relaxed) {
            let hash: UInt64? = cursor.withKey { key in
                guard key.first == tag, key.count > 8 else { return nil }
                return DocumentPresenceFilter.hash(UnsafeRawBufferPointer(rebasing: key.dropLast(8)))
            }
            guard let hash else { break }
            if hash != previous { batch.append(hash) }
            previous = hash
            if batch.count == 4096 {
                state.withLock { DocumentPresenceFilter.insert(batch, into: &$0) }
                batch.removeAll(keepingCapacity: true)
            }
            cursor.next()
        }
        guard !cancelled.load(ordering: .relaxed) else { return }
        try cursor.checkError()
        state.withLock { state in
            DocumentPresenceFilter.insert(batch, into: &state)
            state.isComplete = true
        }
    }

    /// A 64-bit hash of a byte string (multiply-xorshift over 8-byte words).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            index += 8
        }
        var tail: UInt64 = 0
        while index < bytes.count {
            tail = tail << 8 | UInt64(bytes[index])
            index += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 29
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        return hash ^ (hash >> 32)
    }
}
