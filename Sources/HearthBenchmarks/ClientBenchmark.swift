// The `client` benchmark: the latency gates of Docs/specs/004 through UserService on both backends
// (embedded, and a Hearth server in this process over gRPC), with rules/firestore.rules in
// force; on the embedded backend, UserService.createUser against the store's own commit of the
// same document and a cached getUser against 1 µs; and the set-up time of a fresh HearthTesting
// environment against 5 ms. See BENCHMARKS.md, "Client API and UserService".

import DocumentModel
import DocumentStore
import EmulatorServer
import Foundation
import Hearth
import HearthTesting
import SecurityRules
import UserService

/// Options of the `client` benchmark.
struct ClientOptions {
    /// Profiles created (and operations timed) per backend for the latency gates.
    var users = 200
    /// Creates per side for the createUser / store commit ratio.
    var creates = 2000
    /// Cached getUser calls timed.
    var cachedReads = 1_000_000
    /// Fresh HearthTesting environments set up.
    var environments = 200
    var rulesFile = "rules/firestore.rules"
}

func parseClientOptions(_ arguments: ArraySlice<String>) -> ClientOptions {
    var options = ClientOptions()
    var rest = arguments
    while let flag = rest.popFirst() {
        guard let text = rest.popFirst() else { fail("\(flag) needs a value") }
        if flag == "--rules" {
            options.rulesFile = text
            continue
        }
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")), value > 0 else {
            fail("\(flag) needs a positive integer")
        }
        switch flag {
        case "--users": options.users = value
        case "--creates": options.creates = value
        case "--cached-reads": options.cachedReads = value
        case "--environments": options.environments = value
        default: fail("unknown argument '\(flag)'")
        }
    }
    return options
}

/// Nanoseconds of a duration.
func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// Latencies in nanoseconds, reported as p50 and p99.
struct Latencies {
    var values: [Double] = []

    @discardableResult
    mutating func time<R>(_ body: () async throws -> R) async rethrows -> R {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await body()
        values.append(nanoseconds(clock.now - start))
        return result
    }

    /// Times `body`, which runs `operations` operations, and records the time of one.
    mutating func time(per operations: Int, _ body: () async throws -> Void) async rethrows {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        values.append(nanoseconds(clock.now - start) / Double(operations))
    }

    func percentile(_ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}

func runClient(_ options: ClientOptions) async throws {
    print("Hearth client benchmark: UserService and HearthTesting, rules \(options.rulesFile)")
    print("\(Date().formatted(.iso8601)), \(machineDescription())")
    #if DEBUG
        print("WARNING: this is a debug build; run with `swift run -c release HearthBenchmarks client`.")
    #endif
    let rules = try String(contentsOfFile: options.rulesFile, encoding: .utf8)
    let scratch = try Scratch()
    defer { scratch.removeAll() }
    print()
    try await runLatencyGates(options, rules: rules, scratch: scratch)
    print()
    try await runEmbeddedRatios(options, rules: rules, scratch: scratch)
    print()
    try await runEnvironmentSetup(options)
}
