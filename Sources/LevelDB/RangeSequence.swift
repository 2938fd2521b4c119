/// The entries of a key range as a Swift `Sequence`, read lazily through a cursor.
///
/// Each iteration takes a fresh cursor, so it sees the database as it is when iteration starts
/// (or the snapshot in its read options).
///
/// ```swift
/// for (key, value) in db.entries(withPrefix: prefix, reverse: true) { ... }
/// ```
public struct RangeSequence: Sequence, Sendable {
    /// One key and its value.
    public typealias Element = (key: [UInt8], value: [UInt8])

    let database: Database
    let range: KeyRange
    let reverse: Bool
    let options: ReadOptions

    public func makeIterator() -> Iterator {
        Iterator(cursor: try? database.makeCursor(options: options), range: range, reverse: reverse)
    }

    /// Steps a cursor through the range; ends early (and silently) if the database is closed.
    public struct Iterator: IteratorProtocol {
        private let cursor: Cursor?
        private let range: KeyRange
        private let reverse: Bool
        private var started = false

        init(cursor: Cursor?, range: KeyRange, reverse: Bool) {
            self.cursor = cursor
            self.range = range
            self.reverse = reverse
        }

        public mutating func next() -> Element? {
            guard let cursor else { return nil }
            if !started {
                started = true
                position(cursor)
            } else if cursor.isValid {
                if reverse { cursor.previous() } else { cursor.next() }
            }
            guard cursor.isValid else { return nil }
            if reverse {
                guard cursor.compareKey(to: range.lowerBound) >= 0 else { return nil }
            } else if let upperBound = range.upperBound, cursor.compareKey(to: upperBound) >= 0 {
                return nil
            }
            return (cursor.key, cursor.value)
        }

        private func position(_ cursor: Cursor) {
            guard reverse else {
                cursor.seek(to: range.lowerBound)
                return
            }
            if let upperBound = range.upperBound {
                cursor.seek(to: upperBound)
                if cursor.isValid { cursor.previous() } else { cursor.seekToLast() }
            } else {
                cursor.seekToLast()
            }
        }
    }
}
