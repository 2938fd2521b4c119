import Foundation
import Synchronization

/// A task executor over dedicated threads, for the store's blocking work: LevelDB reads, writes
/// and fsyncs run here instead of on Swift's cooperative threads, so one slow disk operation
/// cannot stall every task of the process (the cooperative pool has one thread per core).
///
/// Jobs start in the order they were enqueued, each on the first free thread. After `shutdown()`
/// the threads finish the jobs already queued and exit; later jobs (a task that resumes after
/// the store closed) run on Swift's global executor, where the closed store refuses them.
package final class StoreThreadPool: TaskExecutor, @unchecked Sendable {
    /// What a pool's threads do, readable from any code running on one of them.
    package enum Role: Int, Sendable {
        case writer = 1
        case reader = 2

        /// The role of the pool the calling code runs on, `nil` off the store's threads.
        package static var current: Role? {
            Role(rawValue: Int(bitPattern: pthread_getspecific(StoreThreadPool.roleKey)))
        }
    }

    /// The thread-specific slot holding a pool thread's role.
    private static let roleKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key for the store's threads")
        return key
    }()

    // @unchecked Sendable: `jobs`, `head` and `isShutDown` are touched only with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob?] = []
    private var head = 0
    private var isShutDown = false
    /// What the pool's threads do.
    package let role: Role

    /// Starts `threadCount` threads.
    init(role: Role, threadCount: Int) {
        precondition(threadCount > 0, "a thread pool needs a thread")
        self.role = role
        for _ in 1...threadCount {
            // The thread holds the pool until it exits, after `shutdown()`.
            Thread { [self] in run() }.start()
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        guard !isShutDown else {
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(UnownedJob(job))
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads exit once the queued jobs are done; later jobs go to the global executor.
    func shutdown() {
        condition.lock()
        isShutDown = true
        condition.broadcast()
        condition.unlock()
    }

    /// A thread's loop: take the oldest job, run it, repeat until shut down with nothing queued.
    private func run() {
        pthread_setspecific(StoreThreadPool.roleKey, UnsafeRawPointer(bitPattern: role.rawValue))
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while head == jobs.count, !isShutDown { condition.wait() }
            guard head < jobs.count else {
                condition.unlock()
                return
            }
            let job = jobs[head].take()!
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
