import DocumentModel
import DocumentStore
import Foundation
import Synchronization

/// The system clock, recording which of the store's pools every reading ran on, and blocking each
/// reading for a while once told to: the commit path reads the clock under the commit lock, so
/// it shows (and can stall) the thread a commit runs on.
final class ThreadRecordingClock: WallClock {
    private let pools = Mutex<[String]>([])
    private let blockMilliseconds = Atomic<Int>(0)

    func now() -> Timestamp {
        pools.withLock { $0.append(currentPool()) }
        let milliseconds = blockMilliseconds.load(ordering: .relaxed)
        if milliseconds > 0 { Thread.sleep(forTimeInterval: Double(milliseconds) / 1000) }
        return SystemWallClock().now()
    }

    /// The pools ("writer", "reader", "other") that read the clock since the last call, then forgets them.
    func takePools() -> [String] {
        pools.withLock { names in
            defer { names.removeAll() }
            return names
        }
    }

    /// Makes every later reading block its thread for `milliseconds`.
    func block(milliseconds: Int) {
        blockMilliseconds.store(milliseconds, ordering: .relaxed)
    }
}

/// The store's pool the calling code runs on: "writer", "reader" or "other".
func currentPool() -> String {
    switch StoreThreadPool.Role.current {
    case .writer: "writer"
    case .reader: "reader"
    case nil: "other"
    }
}
