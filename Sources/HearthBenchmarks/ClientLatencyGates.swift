// The latency gates of Docs/specs/004 through UserService, on both backends (see ClientBenchmark.swift).

import DocumentModel
import DocumentStore
import EmulatorServer
import Foundation
import Hearth
import HearthEmbedded
import SecurityRules
import UserService

/// The gates' latencies on one backend.
private struct GateLatencies {
    var create = Latencies()
    var fetch = Latencies()
    var cached = Latencies()
    var listener = Latencies()
}

/// Creates `count` profiles, each as its own user, then reads each from another user's service
/// (cache cleared: a read of the database) and again (from the cache), and times updates seen
/// by a listener of another user.
private func measureGates(_ db: Firestore, count: Int) async throws -> GateLatencies {
    var latencies = GateLatencies()
    let reader = UserService(firestore: db.withIdentity(.user(uid: "reader")))
    for index in 0..<count {
        let uid = "user\(index)"
        let users = UserService(firestore: db.withIdentity(.user(uid: uid)))
        try await latencies.create.time {
            try await users.createUser(id: uid, email: "\(uid)@example.com", displayName: "User \(index)")
        }
        reader.clearCache()
        _ = try await latencies.fetch.time { try await reader.getUser(id: uid) }
        _ = try await latencies.cached.time { try await reader.getUser(id: uid) }
    }
    // Listener: the owner updates the profile; the time until another user's observer has it.
    let owner = UserService(firestore: db.withIdentity(.user(uid: "user0")))
    let (deliveries, continuation) = AsyncStream<String>.makeStream()
    let registration = reader.observeUser(id: "user0") { result in
        if case .success(let user) = result { continuation.yield(user.displayName) }
    }
    defer { registration.remove() }
    var iterator = deliveries.makeAsyncIterator()
    _ = await iterator.next()
    for index in 0..<count {
        let name = "Renamed \(index)"
        try await latencies.listener.time {
            try await owner.updateUser(id: "user0", data: ["displayName": name])
            while let delivered = await iterator.next(), delivered != name {}
        }
    }
    return latencies
}

func runLatencyGates(_ options: ClientOptions, rules: String, scratch: Scratch) async throws {
    let ruleset = try Ruleset(source: rules, fileName: options.rulesFile)
    let embeddedStore = try DocumentStore(path: scratch.folder("gates-embedded"), configuration: storeConfiguration())
    embeddedStore.setRules(ruleset, project: Firestore.defaultProjectID)
    let embeddedDB = try Firestore.embedded(store: embeddedStore)
    let embedded = try await measureGates(embeddedDB, count: options.users)
    await embeddedDB.terminate()
    try embeddedStore.close()

    let serverStore = try DocumentStore(path: scratch.folder("gates-remote"), configuration: storeConfiguration())
    let configuration = EmulatorServerConfiguration(port: 0, rules: RulesFile(source: rules, fileName: options.rulesFile))
    let remote = try await withEmulatorServer(store: serverStore, configuration: configuration) { server in
        let address = try await server.listeningAddress
        let db = try Firestore.remote(host: address.host, port: address.port)
        do {
            let latencies = try await measureGates(db, count: options.users)
            await db.terminate()
            return latencies
        } catch {
            await db.terminate()
            throw error
        }
    }
    try serverStore.close()

    print("Docs/specs/004 latency gates through UserService, \(options.users) operations each, rules in force")
    print("(remote: gRPC to a Hearth server in this process on a loopback port)")
    let header = padded("gate", 30, left: true) + padded("spec", 10) + padded("embedded p50/p99 ms", 22)
        + padded("remote p50/p99 ms", 20) + padded("result", 8)
    print(header)
    print(String(repeating: "-", count: header.count))
    func row(_ label: String, _ limitMilliseconds: Double, _ path: KeyPath<GateLatencies, Latencies>) {
        let sides = [embedded[keyPath: path], remote[keyPath: path]]
        let cells = sides.map { formatted($0.percentile(0.5) / 1e6, 3) + " / " + formatted($0.percentile(0.99) / 1e6, 3) }
        let passes = sides.allSatisfy { $0.percentile(0.99) < limitMilliseconds * 1e6 }
        print(
            padded(label, 30, left: true) + padded("< \(formatted(limitMilliseconds)) ms", 10) + padded(cells[0], 22)
                + padded(cells[1], 20) + padded(passes ? "PASS" : "FAIL", 8))
    }
    row("createUser", 300, \.create)
    row("getUser (database)", 200, \.fetch)
    row("getUser (cache)", 50, \.cached)
    row("update seen by observeUser", 100, \.listener)
}
