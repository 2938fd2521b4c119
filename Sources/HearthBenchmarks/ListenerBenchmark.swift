// The `listeners` benchmark: in-process listener latency from commit to delivered snapshot with
// few and with many registered listeners, and contended transaction throughput. See BENCHMARKS.md.

import DocumentModel
import DocumentStore
import Foundation
import Synchronization

/// Commit-to-snapshot latencies in nanoseconds, measured one commit at a time.
private func listenerLatencies(_ store: DocumentStore, target: DocumentName, commits: Int) async throws -> [Double] {
    let stream = try store.listen(to: .document(target))
    var snapshots = stream.makeAsyncIterator()
    _ = try await snapshots.next()
    var latencies: [Double] = []
    latencies.reserveCapacity(commits)
    let clock = ContinuousClock()
    for index in 0..<commits {
        let start = clock.now
        try store.commit([.set(target, fields: ["n": .integer(Int64(index))])])
        guard let snapshot = try await snapshots.next(), snapshot.documents.first?.fields["n"] == .integer(Int64(index))
        else { throw BenchmarkError("listener missed commit \(index)") }
        let elapsed = clock.now - start
        latencies.append(Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
    }
    stream.cancel()
    return latencies
}

private func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// Runs `body` with a fresh store holding `others` listeners on other documents.
private func withListeners<R>(
    _ others: Int, folder: String, _ body: (DocumentStore) async throws -> R
) async throws -> R {
    let store = try DocumentStore(path: folder, configuration: storeConfiguration())
    let database = try DatabaseID(project: "bench")
    var streams: [ListenerStream] = []
    streams.reserveCapacity(others)
    for index in 0..<others {
        streams.append(try store.listen(to: .document(try DocumentName(database, "others/o\(index)"))))
    }
    let result = try await body(store)
    for stream in streams { stream.cancel() }
    try store.close()
    return result
}

/// Contended read-modify-write increments of one counter: `tasks` concurrent clients, each
/// running `increments` transactions with the SDKs' 5-attempt budget. Returns transactions per
/// second and the attempts used.
private func contendedThroughput(tasks: Int, increments: Int, folder: String) async throws -> (Double, Int) {
    let store = try DocumentStore(path: folder, configuration: storeConfiguration())
    let counter = try DocumentName(try DatabaseID(project: "bench"), "counters/one")
    let attempts = AttemptCounter()
    let clock = ContinuousClock()
    let elapsed = try await clock.measure {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<increments {
                        try await store.runTransaction { transaction in
                            attempts.count.add(1, ordering: .relaxed)
                            let current = try await store.document(counter, transaction: transaction)
                            guard case .integer(let n)? = current?.fields["n"] else {
                                return ([.set(counter, fields: ["n": 1])], ())
                            }
                            return ([.set(counter, fields: ["n": .integer(n + 1)])], ())
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
    guard try store.document(counter)?.fields["n"] == .integer(Int64(tasks * increments)) else {
        throw BenchmarkError("contended counter lost increments")
    }
    try store.close()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (Double(tasks * increments) / seconds, attempts.count.load(ordering: .relaxed))
}

/// Counts transaction attempts across tasks.
private final class AttemptCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// `HearthBenchmarks listeners [--commits N] [--listeners N]`.
func runListeners(commits: Int, manyListeners: Int, rounds: Int) async throws {
    let root = NSTemporaryDirectory() + "hearth-bench-listeners-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: root) }
    print("Listener latency, commit to delivered snapshot (\(commits) commits per round, best of \(rounds) rounds)")
    print("machine: \(machineDescription())")
    var few: [Double] = []
    var many: [Double] = []
    let target = try DocumentName(try DatabaseID(project: "bench"), "bench/target")
    for round in 0..<rounds {
        for (count, label) in [(10, "few"), (manyListeners, "many")] {
            let latencies = try await withListeners(count, folder: "\(root)/\(label)-\(round)") { store in
                try await listenerLatencies(store, target: target, commits: commits)
            }
            let p50 = percentile(latencies, 0.5)
            if label == "few" {
                if few.isEmpty || p50 < percentile(few, 0.5) { few = latencies }
            } else if many.isEmpty || p50 < percentile(many, 0.5) {
                many = latencies
            }
        }
    }
    let ratio = percentile(many, 0.5) / percentile(few, 0.5)
    print(padded("registered listeners", 24, left: true) + padded("p50 ns", 12) + padded("p99 ns", 12))
    print(padded("10", 24, left: true) + padded(formatted(percentile(few, 0.5)), 12) + padded(formatted(percentile(few, 0.99)), 12))
    print(padded("\(manyListeners)", 24, left: true) + padded(formatted(percentile(many, 0.5)), 12)
        + padded(formatted(percentile(many, 0.99)), 12))
    print("p50 ratio \(manyListeners)/10: \(formatted(ratio, 2)) (goal <= 1.5: \(ratio <= 1.5 ? "PASS" : "FAIL"))")
    print()
    let (contended, attempts) = try await contendedThroughput(tasks: 20, increments: 50, folder: "\(root)/contended")
    let (alone, _) = try await contendedThroughput(tasks: 1, increments: 1000, folder: "\(root)/alone")
    print("Contended transactions: 20 clients x 50 read-modify-write increments of one counter")
    print("  \(formatted(contended)) transactions/s, \(attempts) attempts for 1000 commits; "
        + "one client alone: \(formatted(alone)) transactions/s (ratio \(formatted(contended / alone, 2)))")
}
