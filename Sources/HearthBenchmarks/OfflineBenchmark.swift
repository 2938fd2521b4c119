// `HearthBenchmarks offline`: the remote client's local cache (issue #14), each figure a ratio
// measured in the same run:
//
// - `getDocument(source: .cache)` with N cached documents, against `getDocument()` of an
//   embedded store holding the same documents; goal: at most 2x;
// - a query over the cache of N documents, against the same query on the embedded store; goal:
//   at most 2x (a query returning every document, and a selective one with a limit), with the
//   persistent cache and with a memory cache filled the same way;
// - local listener latency after `setData`: from the call to the listener's snapshot, no server
//   round trip in between; goal: p50 under 100 µs;
// - 1,000 writes queued while the network is disabled and synced on `enableNetwork()`, against
//   1,000 online writes each awaited; goal: at most 1.5x.
//
// The remote client talks to a Hearth server in this process on a loopback port; its cache is a
// persistent (LevelDB) cache in a scratch folder.

import DocumentModel
import DocumentStore
import EmulatorServer
import Foundation
import Hearth
import HearthPersistence
import HearthEmbedded
import Synchronization

struct OfflineOptions {
    var documents = 10_000
    var reads = 5_000
    var writes = 1_000
}

func parseOfflineOptions(_ arguments: ArraySlice<String>) -> OfflineOptions {
    var options = OfflineOptions()
    var rest = arguments
    while let flag = rest.popFirst() {
        guard let value = rest.popFirst().flatMap({ Int($0.replacingOccurrences(of: "_", with: "")) }), value > 0 else {
            fail("\(flag) needs a positive integer")
        }
        switch flag {
        case "--documents", "-n": options.documents = value
        case "--reads": options.reads = value
        case "--writes": options.writes = value
        default: fail("unknown argument '\(flag)'")
        }
    }
    return options
}

func runOffline(_ options: OfflineOptions) async throws {
    print("Hearth offline client benchmark: \(options.documents) cached documents")
    print("\(Date().formatted(.iso8601)), \(machineDescription())")
    #if DEBUG
        print("WARNING: this is a debug build; run with `swift run -c release HearthBenchmarks offline`.")
    #endif
    let scratch = try Scratch()
    defer { scratch.removeAll() }
    let store = try DocumentStore(path: scratch.folder("offline-server"), configuration: storeConfiguration())
    defer { try? store.close() }
    let ids = (0..<options.documents).map { String(format: "user%06d", $0) }
    let database = try DatabaseID(project: Firestore.defaultProjectID)
    for chunk in stride(from: 0, to: ids.count, by: 500) {
        let writes = try ids[chunk..<min(chunk + 500, ids.count)].enumerated().map { offset, id in
            Write.set(try DocumentName(database, "users/\(id)"), fields: [
                "name": .string("User \(id)"), "age": .integer(Int64((chunk + offset) % 90)),
                "email": .string("\(id)@example.com"),
            ])
        }
        _ = try store.commit(writes)
    }
    let embedded = try Firestore.embedded(store: store)
    defer { Task { await embedded.terminate() } }

    try await withEmulatorServer(store: store, configuration: EmulatorServerConfiguration(port: 0)) { server in
        let address = try await server.listeningAddress
        var settings = FirestoreSettings()
        settings.cacheSettings = PersistentCacheSettings(path: scratch.folder("offline-cache"))
        let db = try Firestore.remote(host: address.host, port: address.port, settings: settings)
        // Fill the cache from the server.
        let all = try await db.collection("users").getDocuments()
        guard all.count == options.documents else { fail("the server returned \(all.count) documents") }

        var random = SplitMix64(state: 27)
        let picks = (0..<options.reads).map { _ in ids[Int(random.next() % UInt64(ids.count))] }
        var cached = Latencies()
        var stored = Latencies()
        // Alternate in chunks, so both sides see the same machine.
        for chunk in stride(from: 0, to: picks.count, by: 500) {
            let slice = picks[chunk..<min(chunk + 500, picks.count)]
            try await cached.time(per: slice.count) {
                for id in slice { _ = try await db.document("users/\(id)").getDocument(source: .cache) }
            }
            try await stored.time(per: slice.count) {
                for id in slice { _ = try await embedded.document("users/\(id)").getDocument() }
            }
        }

        // The same queries over a memory cache filled the same way.
        let memoryCacheDB = try Firestore.remote(host: address.host, port: address.port)
        guard try await memoryCacheDB.collection("users").getDocuments().count == options.documents else {
            fail("the server returned fewer documents to the memory cache")
        }
        func every(_ db: Firestore) -> Hearth.Query { db.collection("users").whereField("age", isGreaterThanOrEqualTo: 0) }
        func selective(_ db: Firestore) -> Hearth.Query { db.collection("users").whereField("age", isEqualTo: 42).limit(to: 20) }
        var everyQuery = (cache: Latencies(), memory: Latencies(), embedded: Latencies())
        var selectiveQuery = (cache: Latencies(), memory: Latencies(), embedded: Latencies())
        for _ in 0..<5 {
            try await everyQuery.cache.time { _ = try await every(db).getDocuments(source: .cache) }
            try await everyQuery.memory.time { _ = try await every(memoryCacheDB).getDocuments(source: .cache) }
            try await everyQuery.embedded.time { _ = try await every(embedded).getDocuments() }
        }
        // The selective query is short: more runs, in turns.
        for _ in 0..<50 {
            try await selectiveQuery.cache.time { _ = try await selective(db).getDocuments(source: .cache) }
            try await selectiveQuery.memory.time { _ = try await selective(memoryCacheDB).getDocuments(source: .cache) }
            try await selectiveQuery.embedded.time { _ = try await selective(embedded).getDocuments() }
        }
        await memoryCacheDB.terminate()

        let listener = try await listenerLatency(db, writes: options.writes)
        let memoryDB = try Firestore.remote(host: address.host, port: address.port)
        let memoryListener = try await listenerLatency(memoryDB, writes: options.writes)
        await memoryDB.terminate()
        let (queued, online) = try await syncTimes(db, writes: options.writes)
        await db.terminate()

        let header = padded("measure", 58, left: true) + padded("cache", 12) + padded("embedded", 12)
            + padded("ratio", 8) + padded("goal", 8)
        print(header)
        print(String(repeating: "-", count: header.count))
        func row(_ label: String, _ mine: Double, _ theirs: Double, goal: Double) {
            let ratio = mine / theirs
            print(
                padded(label, 58, left: true) + padded(formatted(mine / 1e3, 1) + " µs", 12)
                    + padded(formatted(theirs / 1e3, 1) + " µs", 12) + padded(formatted(ratio, 2) + "x", 8)
                    + padded("≤ \(formatted(goal, 1))x", 8) + (ratio <= goal ? " PASS" : " FAIL"))
        }
        row("getDocument, p50 of 500-read chunks", cached.percentile(0.5), stored.percentile(0.5), goal: 2)
        row(
            "query returning all \(options.documents) documents, persistent, p50", everyQuery.cache.percentile(0.5),
            everyQuery.embedded.percentile(0.5), goal: 2)
        row(
            "query returning all \(options.documents) documents, memory, p50", everyQuery.memory.percentile(0.5),
            everyQuery.embedded.percentile(0.5), goal: 2)
        row(
            "query age == 42, limit 20, persistent, p50", selectiveQuery.cache.percentile(0.5),
            selectiveQuery.embedded.percentile(0.5), goal: 2)
        row(
            "query age == 42, limit 20, memory, p50", selectiveQuery.memory.percentile(0.5),
            selectiveQuery.embedded.percentile(0.5), goal: 2)
        for (cache, latencies) in [("persistent", listener), ("memory", memoryListener)] {
            let p50 = latencies.percentile(0.5) / 1e3
            print(
                "local listener latency after setData, \(cache) cache, \(options.writes) writes: p50 "
                    + "\(formatted(p50, 1)) µs, p99 \(formatted(latencies.percentile(0.99) / 1e3, 1)) µs "
                    + "(goal p50 < 100 µs: \(p50 < 100 ? "PASS" : "FAIL"))")
        }
        let ratio = queued / online
        print(
            "\(options.writes) queued writes synced on enableNetwork: \(formatted(queued * 1e3, 1)) ms; "
                + "\(options.writes) online writes: \(formatted(online * 1e3, 1)) ms; ratio \(formatted(ratio, 2))x "
                + "(goal ≤ 1.5x: \(ratio <= 1.5 ? "PASS" : "FAIL"))")
    }
}

/// The time from calling `setData` to the listener's snapshot showing it, per write.
private func listenerLatency(_ db: Firestore, writes: Int) async throws -> Latencies {
    let ref = db.document("bench/listener")
    let arrivals = Mutex<[Int: ContinuousClock.Instant]>([:])
    let (seen, seenSink) = AsyncStream<Int>.makeStream()
    let registration = ref.addSnapshotListener { snapshot, _ in
        guard let n = snapshot?.get("n") as? Int else { return }
        arrivals.withLock { $0[n] = ContinuousClock.now }
        seenSink.yield(n)
    }
    defer { registration.remove() }
    var iterator = seen.makeAsyncIterator()
    var writesInFlight: [Task<ContinuousClock.Instant, any Error>] = []
    for n in 0..<writes {
        writesInFlight.append(
            Task {
                let start = ContinuousClock.now
                try await ref.setData(["n": n])
                return start
            })
        while let arrived = await iterator.next(), arrived != n {}
    }
    var latencies = Latencies()
    for (n, task) in writesInFlight.enumerated() {
        let start = try await task.value
        if let end = arrivals.withLock({ $0[n] }) { latencies.values.append(nanoseconds(end - start)) }
    }
    return latencies
}

/// Seconds to sync `writes` queued writes after `enableNetwork()`, and to make as many online
/// writes each awaited.
private func syncTimes(_ db: Firestore, writes: Int) async throws -> (queued: Double, online: Double) {
    let clock = ContinuousClock()
    let onlineStart = clock.now
    for n in 0..<writes { try await db.document("bench/online\(n % 100)").setData(["n": n]) }
    let online = nanoseconds(clock.now - onlineStart) / 1e9

    await db.disableNetwork()
    let tasks = (0..<writes).map { n in Task { try await db.document("bench/queued\(n % 100)").setData(["n": n]) } }
    // Every write is queued once the cache shows the last one.
    while (try? await db.document("bench/queued\((writes - 1) % 100)").getDocument(source: .cache))?.get("n") as? Int
        != writes - 1
    {
        try await Task.sleep(for: .milliseconds(1))
    }
    let queuedStart = clock.now
    await db.enableNetwork()
    try await db.waitForPendingWrites()
    let queued = nanoseconds(clock.now - queuedStart) / 1e9
    for task in tasks { try await task.value }
    return (queued, online)
}
