// A correctly locked program that ThreadSanitizer reports on Linux (scripts/sanitizers/thread.supp):
// swiftc -sanitize=thread -g locked-mutex.swift -o /tmp/locked-mutex && /tmp/locked-mutex
// reports a Swift access race inside withLock; with TSAN_OPTIONS=suppressions=thread.supp, none.
import Synchronization
import Foundation

final class Counter: Sendable {
    let state = Mutex<[Int]>([])
    func add(_ n: Int) { state.withLock { $0.append(n) } }
    var count: Int { state.withLock { $0.count } }
}

let counter = Counter()
let threads = (0..<4).map { i in
    Thread { for n in 0..<1000 { counter.add(i * 1000 + n) } }
}
threads.forEach { $0.start() }
while counter.count < 4000 { usleep(1000) }
print("count", counter.count)
