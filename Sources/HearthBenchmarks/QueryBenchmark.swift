import DocumentModel
import DocumentStore
import Foundation
import LevelDB

// The `queries` workload: Hearth's query engine on users/<uid> documents, each figure next to
// the cheapest way to get the same documents, in the same run. See BENCHMARKS.md.
//
//   swift run -c release HearthBenchmarks queries [--documents N] [--iterations I] [--creates C]
//       [--create-rounds R] [--only create]

struct QueryBenchmarkOptions {
    var documents = 1_000_000
    /// The small collection of the scaling comparison.
    var smallDocuments = 10_000
    var iterations = 1000
    var creates = 20_000
    /// Rounds of the index-maintenance measurement (fresh folders each; best round per side).
    var createRounds = 3
    /// Only the index-maintenance measurement (no collections loaded), e.g. under a profiler.
    var onlyCreate = false
}

let queriesUsage = """
    Usage: HearthBenchmarks queries [--documents N] [--iterations I] [--creates C] [--create-rounds R]
                                    [--only create]

      queries        the query engine on N users/<uid> documents (default 1000000): equality,
                     range with order and limit, collection group, count, the same queries on
                     10000 documents, and creating a user with its index entries
      --iterations I queries per measurement (default 1000)
      --creates C    documents created for the index-maintenance measurement (default 20000)
      --create-rounds R  rounds of that measurement, each side's best reported (default 3)
      --only create  only the index-maintenance measurement (loads no collection)
    """

func parseQueryOptions(_ arguments: ArraySlice<String>) -> QueryBenchmarkOptions {
    var options = QueryBenchmarkOptions()
    var rest = arguments
    while let flag = rest.popFirst() {
        if flag == "--help" || flag == "-h" {
            print(queriesUsage)
            exit(0)
        }
        if flag == "--only" {
            guard rest.popFirst() == "create" else { fail("--only needs 'create'") }
            options.onlyCreate = true
            continue
        }
        guard let text = rest.popFirst(), let value = Int(text.replacingOccurrences(of: "_", with: "")), value > 0 else {
            fail("\(flag) needs a positive integer")
        }
        switch flag {
        case "--documents", "-n": options.documents = value
        case "--iterations": options.iterations = value
        case "--creates": options.creates = value
        case "--create-rounds": options.createRounds = value
        default: fail("unknown argument '\(flag)'")
        }
    }
    options.smallDocuments = min(options.smallDocuments, options.documents)
    return options
}

/// One line of the report: Hearth against a reference doing the same reads the cheapest way.
struct QueryMeasurement {
    let label: String
    let hearth: Double
    let reference: Double
    let referenceLabel: String
    let goal: Double?

    var ratio: Double { hearth / reference }
    var passes: Bool { goal.map { ratio <= $0 } ?? true }
}

/// Runs `first` and `second` in turns, `iterations` times each (the iteration number is the
/// argument), and returns the median nanoseconds of each.
func alternate(_ iterations: Int, _ first: (Int) throws -> Void, _ second: (Int) throws -> Void) throws -> (Double, Double) {
    let clock = ContinuousClock()
    var times: ([Double], [Double]) = ([], [])
    func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
    for iteration in 0..<iterations {
        // Who goes first alternates, so both meet the same cache and machine state.
        for side in iteration % 2 == 0 ? [0, 1] : [1, 0] {
            let began = clock.now
            if side == 0 { try first(iteration) } else { try second(iteration) }
            let elapsed = nanoseconds(clock.now - began)
            if side == 0 { times.0.append(elapsed) } else { times.1.append(elapsed) }
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return (median(times.0), median(times.1))
}

func runQueries(_ options: QueryBenchmarkOptions) throws {
    let scratch = try Scratch()
    defer { scratch.removeAll() }
    print("Hearth query benchmark: \(options.documents) users/<uid> documents, \(options.iterations) queries per measurement")
    print("\(Date().formatted(.iso8601)), \(machineDescription())")
    #if DEBUG
    print("WARNING: this is a debug build; run with `swift run -c release HearthBenchmarks queries`.")
    #endif
    if options.onlyCreate {
        report(
            try QueryWorkloads(iterations: options.iterations).create(
                count: options.creates, rounds: options.createRounds, scratch: scratch))
        return
    }
    let workloads = QueryWorkloads(iterations: options.iterations)
    // Index maintenance first, on fresh folders: after the load below, the kernel spends minutes
    // writing back the million users' gigabyte, which slows every LevelDB write and, per create,
    // the side that writes more bytes most.
    var measurements = try workloads.create(count: options.creates, rounds: options.createRounds, scratch: scratch)
    let large = try QueryUsers(count: options.documents)
    let small = try QueryUsers(count: options.smallDocuments)
    let clock = ContinuousClock()
    var began = clock.now
    let largeStore = try DocumentStore(path: scratch.folder("queries-large"), configuration: storeConfiguration())
    try large.load(into: largeStore)
    print("loaded \(large.count) users in \(clock.now - began)")
    began = clock.now
    let smallStore = try DocumentStore(path: scratch.folder("queries-small"), configuration: storeConfiguration())
    try small.load(into: smallStore)
    print("loaded \(small.count) users in \(clock.now - began)")
    print()

    measurements.append(try workloads.equality(large, largeStore))
    measurements.append(try workloads.range(large, largeStore))
    measurements.append(try workloads.collectionGroup(large, largeStore))
    measurements.append(try workloads.count(large, largeStore))
    measurements.append(contentsOf: try workloads.scaling(small: (small, smallStore), large: (large, largeStore)))
    try smallStore.close()
    try largeStore.close()
    report(measurements)
}

/// Prints the table of `measurements` and the goals they miss.
func report(_ measurements: [QueryMeasurement]) {
    print()
    printQueryTable(measurements)
    let failed = measurements.filter { !$0.passes }
    print()
    if failed.isEmpty {
        print("All goals met.")
    } else {
        print("GOAL MISSED: " + failed.map { "\($0.label) (ratio \(formatted($0.ratio, 2)))" }.joined(separator: "; "))
    }
}

func printQueryTable(_ measurements: [QueryMeasurement]) {
    let header = padded("measurement", 44, left: true) + padded("Hearth ns", 12) + padded("reference ns", 14)
        + padded("ratio", 8) + padded("goal", 8) + padded("result", 8) + "  reference"
    print(header)
    print(String(repeating: "-", count: header.count + 20))
    for measurement in measurements {
        print(
            padded(measurement.label, 44, left: true) + padded(formatted(measurement.hearth), 12)
                + padded(formatted(measurement.reference), 14) + padded(formatted(measurement.ratio, 2), 8)
                + padded(measurement.goal.map { "<= " + formatted($0, $0 < 10 ? ($0 == $0.rounded() ? 0 : 2) : 0) } ?? "-", 8)
                + padded(measurement.goal == nil ? "-" : (measurement.passes ? "PASS" : "FAIL"), 8)
                + "  " + measurement.referenceLabel)
    }
}
