// UserService against the store on the embedded backend, and HearthTesting's set-up time (see
// ClientBenchmark.swift).

import DocumentModel
import DocumentStore
import Foundation
import Hearth
import HearthEmbedded
import HearthTesting
import SecurityRules
import UserService

/// Operations per sample of the createUser / store commit comparison.
let ratioSampleSize = 10

/// `createUser` of new profiles against the store's own commit of the same documents (the set
/// with two server-timestamp transforms that `setData(from:)` sends), both as the profile's
/// owner with the rules in force, on two fresh stores, taking turns in short samples; and
/// `getUser` answered from the cache. Prints the ratios of the medians measured in this run.
func runEmbeddedRatios(_ options: ClientOptions, rules: String, scratch: Scratch) async throws {
    let ruleset = try Ruleset(source: rules, fileName: options.rulesFile)
    let project = Firestore.defaultProjectID
    let serviceStore = try DocumentStore(path: scratch.folder("ratio-service"), configuration: storeConfiguration())
    let directStore = try DocumentStore(path: scratch.folder("ratio-store"), configuration: storeConfiguration())
    serviceStore.setRules(ruleset, project: project)
    directStore.setRules(ruleset, project: project)
    let db = try Firestore.embedded(store: serviceStore)

    let count = options.creates
    let uids = (0..<count).map { "user\($0)" }
    let services = uids.map { UserService(firestore: db.withIdentity(.user(uid: $0))) }
    let database = try DatabaseID(project: project)
    let timestamps = [
        FieldTransform(try FieldPath("createdAt"), .serverTimestamp),
        FieldTransform(try FieldPath("updatedAt"), .serverTimestamp),
    ]
    let writes = try uids.enumerated().map { index, uid in
        Write.set(
            try DocumentName(database, ResourcePath(segments: ["users", uid])),
            fields: ["uid": .string(uid), "email": .string("\(uid)@example.com"), "displayName": .string("User \(index)")],
            transforms: timestamps)
    }
    let identities = uids.map { RequestIdentity.user(RulesAuth(uid: $0, token: ["sub": .string($0)])) }

    // The service's arguments are made before timing, as the store's writes are.
    let emails = uids.map { "\($0)@example.com" }
    let names = uids.indices.map { "User \($0)" }

    // Short samples taking turns, so that both sides meet the same load; the medians of the
    // per-operation times leave out the samples a preemption inflated.
    var service = Latencies()
    var store = Latencies()
    var start = 0
    var turn = 0
    while start < count {
        let range = start..<min(start + ratioSampleSize, count)
        for side in [turn % 2, (turn + 1) % 2] {
            if side == 0 {
                try await service.time(per: range.count) {
                    for index in range {
                        try await services[index].createUser(id: uids[index], email: emails[index], displayName: names[index])
                    }
                }
            } else {
                try await store.time(per: range.count) {
                    for index in range { try directStore.commit([writes[index]], as: identities[index]) }
                }
            }
        }
        start = range.upperBound
        turn += 1
    }
    let serviceNanoseconds = service.percentile(0.5)
    let storeNanoseconds = store.percentile(0.5)

    // Cached reads: one service that has read every profile; samples of 1,000 reads.
    let reader = services[0]
    let cachedIDs = Array(uids.prefix(1000))
    for uid in cachedIDs { _ = try await reader.getUser(id: uid) }
    var cached = Latencies()
    for sample in 0..<max(1, options.cachedReads / 1000) {
        try await cached.time(per: 1000) {
            for index in 0..<1000 { _ = try await reader.getUser(id: cachedIDs[(sample + index) % cachedIDs.count]) }
        }
    }
    let cachedNanoseconds = cached.percentile(0.5)
    await db.terminate()
    try serviceStore.close()
    try directStore.close()

    print(
        "Embedded backend, rules in force, measured in this run (\(count) creates per side in samples of "
            + "\(ratioSampleSize) taking turns; medians per operation)")
    let header = padded("measure", 46, left: true) + padded("ns/op", 12) + padded("against ns/op", 15)
        + padded("ratio", 8) + padded("goal", 8) + padded("result", 8)
    print(header)
    print(String(repeating: "-", count: header.count))
    func row(_ label: String, _ measured: Double, _ against: Double, goal: Double) {
        let ratio = measured / against
        print(
            padded(label, 46, left: true) + padded(formatted(measured), 12) + padded(formatted(against), 15)
                + padded(formatted(ratio, 2), 8) + padded("<= " + formatted(goal, 0), 8)
                + padded(ratio <= goal ? "PASS" : "FAIL", 8))
    }
    row("createUser / store commit of the same document", serviceNanoseconds, storeNanoseconds, goal: 2)
    row("cached getUser / 1 µs", cachedNanoseconds, 1000, goal: 1)
}

/// Fresh embedded HearthTesting environments with the rules file: set-up time (a new store in
/// a temporary folder with the rules set) and clean-up time, against 5 ms.
func runEnvironmentSetup(_ options: ClientOptions) async throws {
    let rules = try RulesSource.file(options.rulesFile)
    // The first environment compiles the rules (once per process); it is not counted.
    try await RulesTestEnvironment(rules: rules).cleanup()
    var setup = Latencies()
    var cleanup = Latencies()
    for _ in 0..<options.environments {
        let environment = try await setup.time { try await RulesTestEnvironment(rules: rules) }
        try await environment.withSecurityRulesDisabled { admin in
            try await admin.document("users/alice").setData(["uid": "alice"])
        }
        try await cleanup.time { try await environment.cleanup() }
    }
    print("Fresh embedded HearthTesting environment (\(options.environments) environments)")
    let header = padded("measure", 46, left: true) + padded("p50 ms", 10) + padded("p99 ms", 10)
        + padded("p50/5 ms", 10) + padded("result", 8)
    print(header)
    print(String(repeating: "-", count: header.count))
    for (label, latencies, gated) in [("set-up (store, rules)", setup, true), ("clean-up (close, delete)", cleanup, false)] {
        let p50 = latencies.percentile(0.5) / 1e6
        print(
            padded(label, 46, left: true) + padded(formatted(p50, 3), 10)
                + padded(formatted(latencies.percentile(0.99) / 1e6, 3), 10) + padded(gated ? formatted(p50 / 5, 2) : "", 10)
                + padded(gated ? (p50 <= 5 ? "PASS" : "FAIL") : "", 8))
    }
}
