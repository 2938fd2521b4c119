import Synchronization

/// A thread-safe counter for attempts and callbacks.
final class Counter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    @discardableResult
    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
