// UserService against the store on the embedded backend, and HearthTesting's set-up time (see
// ClientBenchmark.swift).

import DocumentModel
import DocumentStore
import Foundation
import Hearth
import HearthTesting
import SecurityRules
import UserService

/// `createUser` of new profiles against the store's own commit of the same documents (the set
/// with two server-timestamp transforms that `setData(from:)` sends), both as the profile's
/// owner with the rules in force, on two fresh stores, taking turns in chunks; and `getUser`
/// answered from the cache. Prints ratios measured in this run.
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

    let clock = ContinuousClock()
    var serviceTime = Duration.zero
    var storeTime = Duration.zero
    let chunk = max(1, count / 20)
    var start = 0
    var turn = 0
    while start < count {
        let range = start..<min(start + chunk, count)
        for side in [turn % 2, (turn + 1) % 2] {
            let began = clock.now
            if side == 0 {
                for index in range {
                    try await services[index].createUser(
                        id: uids[index], email: "\(uids[index])@example.com", displayName: "User \(index)")
                }
                serviceTime += clock.now - began
            } else {
                for index in range { try directStore.commit([writes[index]], as: identities[index]) }
                storeTime += clock.now - began
            }
        }
        start = range.upperBound
        turn += 1
    }
    let serviceNanoseconds = nanoseconds(serviceTime) / Double(count)
    let storeNanoseconds = nanoseconds(storeTime) / Double(count)

    // Cached reads: one service that has read every profile.
    let reader = services[0]
    for uid in uids.prefix(1000) { _ = try await reader.getUser(id: uid) }
    let cachedIDs = Array(uids.prefix(1000))
    let began = clock.now
    for index in 0..<options.cachedReads {
        _ = try await reader.getUser(id: cachedIDs[index % cachedIDs.count])
    }
    let cachedNanoseconds = nanoseconds(clock.now - began) / Double(options.cachedReads)
    await db.terminate()
    try serviceStore.close()
    try directStore.close()

    print("Embedded backend, rules in force, measured in this run (\(count) creates per side, taking turns)")
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
