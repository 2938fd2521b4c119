// HearthBenchmarks: Hearth's storage engine against raw LevelDB doing the same work on the same
// bytes, in the same run. See BENCHMARKS.md.
//
//   swift run -c release HearthBenchmarks storage [--documents N] [--rounds R]
//   swift run -c release HearthBenchmarks queries [--documents N]   (QueryBenchmark.swift)

import DocumentModel
import DocumentStore
import Foundation
import LevelDB

// MARK: - Arguments

struct Options {
    var documents = 100_000
    var rounds = 2
    var batchSize = 500
    /// Run only these workloads (for profiling); all three when empty.
    var only: Set<String> = []
}

let usage = """
    Usage: HearthBenchmarks storage [--documents N] [--rounds R] [--only create1|create500|get]
           HearthBenchmarks listeners [--commits N] [--listeners N] [--rounds R]
           HearthBenchmarks rules [--rules FILE]
           HearthBenchmarks rules-fuzz [--count N] [--seed S] [--rules FILE]
           HearthBenchmarks client [--users N] [--creates N] [--cached-reads N] [--environments N] [--rules FILE]
           HearthBenchmarks queries [--documents N] [--iterations I] [--creates C]   (see queries --help)
           HearthBenchmarks portability [--documents N] [--google]   (PortabilityBenchmark.swift)
           HearthBenchmarks offline [--documents N] [--reads N] [--writes N]   (OfflineBenchmark.swift)

      storage        DocumentStore against raw LevelDB over users/<uid> documents:
                     create one per commit, create in commits of 500, get the latest version.
                     The contenders of a workload take turns in chunks of 5% of the documents.
      --documents N  documents per workload (default 100000)
      --rounds R     rounds, each on fresh folders; the best time of each side is reported
                     (default 2)
      --only W       run only workload W (create1, create500 or get), e.g. under a profiler;
                     repeat for several

      listeners      in-process listener latency from commit to delivered snapshot, p50 and p99,
                     with 10 and with --listeners N (default 10000) listeners registered on other
                     documents, and contended transaction throughput (20 clients, one counter)
      --commits N    commits measured per round (default 2000)
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("HearthBenchmarks: \(message)\n\n\(usage)\n".utf8))
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    guard let command = arguments.first else { fail("missing benchmark name") }
    if command == "--help" || command == "-h" || command == "help" {
        print(usage)
        exit(0)
    }
    guard command == "storage" else { fail("unknown benchmark '\(command)'") }
    var rest = arguments.dropFirst()
    func positiveInteger(_ flag: String) -> Int {
        guard let text = rest.popFirst() else { fail("\(flag) needs a value") }
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")), value > 0 else {
            fail("\(flag) needs a positive integer, got '\(text)'")
        }
        return value
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--documents", "-n": options.documents = positiveInteger(argument)
        case "--rounds": options.rounds = positiveInteger(argument)
        case "--only":
            guard let workload = rest.popFirst(), ["create1", "create500", "get"].contains(workload) else {
                fail("--only needs one of create1, create500, get")
            }
            options.only.insert(workload)
        case "--help", "-h":
            print(usage)
            exit(0)
        default: fail("unknown argument '\(argument)'")
        }
    }
    return options
}

// MARK: - Data

/// A small deterministic generator (SplitMix64), so every run uses the same uids and order.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The benchmark's documents: `users/<uid>` shaped like the spec's user, plus the bytes raw
/// LevelDB writes for each (the same key and value bytes the store writes).
struct UserSet {
    let names: [DocumentName]
    /// The fields the client sends; `createdAt` and `updatedAt` are server-timestamp transforms.
    let fields: [MapValue]
    let transforms: [FieldTransform]
    /// Raw LevelDB's keys and values: `StorageKeys.version(name, v)` and `DocumentCodec.encode`
    /// of the document the store would write at commit version `v`.
    let rawKeys: [[UInt8]]
    let rawValues: [[UInt8]]
    /// The single-field index keys the store writes with each document (empty values).
    let rawIndexKeys: [[[UInt8]]]
    /// A random permutation of `0..<count`, the order of the reads.
    let readOrder: [Int]
    /// For the floor measurement: the key the store seeks to when it reads a document's newest
    /// version (`StorageKeys.version(name, .max)`), and the prefix of all its versions.
    let seekKeys: [[UInt8]]
    let versionPrefixes: [[UInt8]]

    var count: Int { names.count }

    init(count: Int) throws {
        let database = try DatabaseID(project: "bench")
        var random = SplitMix64(state: 20_240_501)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var names: [DocumentName] = []
        var fields: [MapValue] = []
        var rawKeys: [[UInt8]] = []
        var rawValues: [[UInt8]] = []
        var rawIndexKeys: [[[UInt8]]] = []
        names.reserveCapacity(count)
        fields.reserveCapacity(count)
        rawKeys.reserveCapacity(count)
        rawValues.reserveCapacity(count)
        var seen = Set<String>()
        // Commit versions like the store's: microseconds since the epoch, one per document.
        let baseVersion = SystemWallClock().now().microsecondsSinceEpoch
        while names.count < count {
            // A Firebase Auth uid: 28 alphanumeric characters.
            let uid = String(decoding: (0..<28).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }, as: UTF8.self)
            guard seen.insert(uid).inserted else { continue }
            let number = names.count
            let name = try DocumentName(database, ResourcePath(segments: ["users", uid]))
            let userFields: MapValue = [
                "uid": .string(uid),
                "email": .string("user\(number)@example.com"),
                "displayName": .string("User Number \(number)"),
                "photoURL": .string("https://example.com/photos/\(uid).jpg"),
            ]
            names.append(name)
            fields.append(userFields)
            let version = baseVersion + Int64(number)
            let time = Timestamp(microsecondsSinceEpoch: version)
            var stored = userFields
            stored["createdAt"] = .timestamp(time)
            stored["updatedAt"] = .timestamp(time)
            rawKeys.append(StorageKeys.version(name, version))
            let document = Document(name: name, fields: stored, createTime: time, updateTime: time)
            rawValues.append(DocumentCodec.encode(document))
            rawIndexKeys.append(StorageKeys.indexKeys(of: document, groupID: 1))
        }
        self.names = names
        self.fields = fields
        self.rawKeys = rawKeys
        self.rawValues = rawValues
        self.rawIndexKeys = rawIndexKeys
        transforms = [
            FieldTransform(try FieldPath("createdAt"), .serverTimestamp),
            FieldTransform(try FieldPath("updatedAt"), .serverTimestamp),
        ]
        seekKeys = names.map { StorageKeys.version($0, .max) }
        versionPrefixes = names.map { StorageKeys.versionsPrefix($0) }
        var order = Array(0..<count)
        order.shuffle(using: &random)
        readOrder = order
    }

    func write(_ index: Int) -> Write {
        .create(names[index], fields: fields[index], transforms: transforms)
    }
}

// MARK: - Folders and stores

final class Scratch {
    let root: URL
    private var counter = 0

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A new, empty folder.
    func folder(_ label: String) -> String {
        counter += 1
        return root.appendingPathComponent("\(counter)-\(label)").path
    }

    func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    func removeAll() { try? FileManager.default.removeItem(at: root) }
}

let levelDBOptions = OpenOptions()

func storeConfiguration() -> StoreConfiguration {
    var configuration = StoreConfiguration()
    configuration.levelDB = levelDBOptions
    configuration.garbageCollectionIntervalSeconds = nil
    return configuration
}

/// Compacts the whole database in `path` (closed) so both sides read the same, settled layout.
func compactFolder(_ path: String) throws {
    let database = try Database(path: path, options: levelDBOptions)
    try database.compact()
    try database.close()
}

// MARK: - Workloads

struct Workload {
    let label: String
    let goal: Double
    var hearth: [Double] = []
    var raw: [Double] = []
    /// Raw LevelDB doing the least the store's work needs (see `floorCreate`), if measured.
    var floor: [Double] = []

    var bestHearth: Double { hearth.min() ?? .nan }
    var bestRaw: Double { raw.min() ?? .nan }
    var bestFloor: Double { floor.min() ?? .nan }
    var ratio: Double { bestHearth / bestRaw }
    var passes: Bool { ratio <= goal }
}

/// One contender of a workload: `run` does the work for the documents in a range, `close`
/// closes its database.
struct Side {
    let run: (Range<Int>) throws -> Void
    let close: () throws -> Void
}

/// Runs `sides` over `0..<count` in chunks of `chunk` documents, taking turns chunk by chunk
/// (and rotating who goes first), so that every side meets the same machine load on a shared
/// machine. Returns each side's nanoseconds per document.
func interleave(_ sides: [Side], count: Int, chunk: Int, round: Int) throws -> [Double] {
    let clock = ContinuousClock()
    var elapsed = Array(repeating: Duration.zero, count: sides.count)
    var chunkIndex = 0
    var start = 0
    while start < count {
        let range = start..<min(start + chunk, count)
        for turn in 0..<sides.count {
            let side = (turn + chunkIndex + round) % sides.count
            let began = clock.now
            try sides[side].run(range)
            elapsed[side] += clock.now - began
        }
        start = range.upperBound
        chunkIndex += 1
    }
    for side in sides { try side.close() }
    return elapsed.map { duration in
        (Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9) / Double(count)
    }
}

/// Hearth: `Write.create` of each document with server-timestamp transforms, in commits of
/// `batchSize` (ranges are whole batches).
func hearthCreate(_ users: UserSet, batchSize: Int, path: String) throws -> Side {
    let store = try DocumentStore(path: path, configuration: storeConfiguration())
    let writes = (0..<users.count).map(users.write)
    return Side(
        run: { range in
            if batchSize == 1 {
                for index in range { try store.commit([writes[index]]) }
                return
            }
            var start = range.lowerBound
            while start < range.upperBound {
                try store.commit(Array(writes[start..<min(start + batchSize, range.upperBound)]))
                start += batchSize
            }
        },
        close: { try store.close() })
}

/// Raw LevelDB doing the same work on the same bytes as the store: per commit one write batch
/// with each document's key and value and its single-field index keys (building the batch is
/// part of the work; the store's last-commit reservation, about once a second, is left out).
func rawCreate(_ users: UserSet, batchSize: Int, path: String) throws -> Side {
    let database = try Database(path: path, options: levelDBOptions)
    let keys = users.rawKeys
    let values = users.rawValues
    let indexKeys = users.rawIndexKeys
    let empty: [UInt8] = []
    return Side(
        run: { range in
            var start = range.lowerBound
            while start < range.upperBound {
                let batch = WriteBatch()
                for index in start..<min(start + batchSize, range.upperBound) {
                    batch.put(keys[index], values[index])
                    for key in indexKeys[index] { batch.put(key, empty) }
                }
                try database.write(batch)
                start += batchSize
            }
        },
        close: { try database.close() })
}

/// For reference, raw LevelDB doing the least a create needs: the existence check that the
/// `exists: false` precondition requires (a cursor seek to the document's newest version, as
/// the store does; LevelDB's bloom filter serves only exact-key gets, not prefixes) and the
/// same puts. One cursor per commit, as the store does.
func floorCreate(_ users: UserSet, batchSize: Int, path: String) throws -> Side {
    let database = try Database(path: path, options: levelDBOptions)
    let keys = users.rawKeys
    let values = users.rawValues
    return Side(
        run: { range in
            var start = range.lowerBound
            while start < range.upperBound {
                let cursor = try database.makeCursor()
                let batch = WriteBatch()
                for index in start..<min(start + batchSize, range.upperBound) {
                    cursor.seek(to: users.seekKeys[index])
                    if cursor.isValid, cursor.keyHasPrefix(users.versionPrefixes[index]) {
                        throw BenchmarkError("floor: users/\(users.names[index].documentID) exists before its create")
                    }
                    batch.put(keys[index], values[index])
                    for key in users.rawIndexKeys[index] { batch.put(key, []) }
                }
                try database.write(batch)
                start += batchSize
            }
        },
        close: { try database.close() })
}

/// Hearth: `document(_:)`, the latest version, of each document in random order.
func hearthGet(_ users: UserSet, path: String) throws -> Side {
    let store = try DocumentStore(path: path, configuration: storeConfiguration())
    let names = users.readOrder.map { users.names[$0] }
    return Side(
        run: { range in
            for index in range where try store.document(names[index]) == nil {
                throw BenchmarkError("Hearth: users/\(names[index].documentID) is missing")
            }
        },
        close: { try store.close() })
}

/// Raw LevelDB: a get of the same document's key, in the same order.
func rawGet(_ users: UserSet, path: String) throws -> Side {
    let database = try Database(path: path, options: levelDBOptions)
    let keys = users.readOrder.map { users.rawKeys[$0] }
    return Side(
        run: { range in
            for index in range where try database.get(keys[index]) == nil {
                throw BenchmarkError("raw LevelDB: key \(index) is missing")
            }
        },
        close: { try database.close() })
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Report

func formatted(_ value: Double, _ digits: Int = 0) -> String {
    String(format: "%.\(digits)f", value)
}

func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

func printTable(_ workloads: [Workload]) {
    let header = padded("workload", 34, left: true) + padded("Hearth ns/op", 14) + padded("raw ns/op", 12)
        + padded("ratio", 8) + padded("goal", 8) + padded("result", 8)
    print(header)
    print(String(repeating: "-", count: header.count))
    for workload in workloads {
        print(
            padded(workload.label, 34, left: true) + padded(formatted(workload.bestHearth), 14)
                + padded(formatted(workload.bestRaw), 12) + padded(formatted(workload.ratio, 2), 8)
                + padded("<= " + formatted(workload.goal, 0), 8) + padded(workload.passes ? "PASS" : "FAIL", 8))
    }
}

// MARK: - Main

/// The processor model (where `/proc/cpuinfo` tells it) and the number of cores.
func machineDescription() -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    var model = "unknown processor"
    if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let colon = line.firstIndex(of: ":")
    {
        model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return "\(model), \(cores) core(s)"
}

func runStorage(_ options: Options) throws {
    let scratch = try Scratch()
    defer { scratch.removeAll() }
    print("Hearth storage benchmark: \(options.documents) users/<uid> documents per workload, best of \(options.rounds) round(s)")
    print("\(Date().formatted(.iso8601)), \(machineDescription())")
    #if DEBUG
    print("WARNING: this is a debug build; run with `swift run -c release HearthBenchmarks storage`.")
    #endif
    print("folder: \(scratch.root.path)")
    let users = try UserSet(count: options.documents)
    let averageKey = users.rawKeys.reduce(0) { $0 + $1.count } / users.count
    let averageValue = users.rawValues.reduce(0) { $0 + $1.count } / users.count
    print("bytes per document: key \(averageKey), value \(averageValue)")
    print()

    var createOne = Workload(label: "create, 1 per commit / same batch", goal: 3)
    var createBatch = Workload(label: "create, \(options.batchSize) per commit / same batch", goal: 2)
    var get = Workload(label: "get latest version / get", goal: 2)

    func selected(_ workload: String) -> Bool { options.only.isEmpty || options.only.contains(workload) }

    // Each round uses fresh folders; the sides of a workload take turns chunk by chunk.
    let chunk = max(1, options.documents / 20)
    let batchChunk = max(1, chunk / options.batchSize) * options.batchSize
    for round in 1...options.rounds {
        var line: [String] = []
        if selected("create1") {
            let folders = ["hearth-create1", "raw-put1", "floor-create1"].map(scratch.folder)
            let times = try interleave(
                [
                    try hearthCreate(users, batchSize: 1, path: folders[0]),
                    try rawCreate(users, batchSize: 1, path: folders[1]),
                    try floorCreate(users, batchSize: 1, path: folders[2]),
                ], count: users.count, chunk: chunk, round: round)
            createOne.hearth.append(times[0])
            createOne.raw.append(times[1])
            createOne.floor.append(times[2])
            folders.forEach(scratch.remove)
            line.append("create1 \(formatted(times[0]))/\(formatted(times[1])) (floor \(formatted(times[2])))")
        }
        if selected("create500") || selected("get") {
            let folders = ["hearth-create\(options.batchSize)", "raw-batch\(options.batchSize)", "floor-create\(options.batchSize)"]
                .map(scratch.folder)
            let times = try interleave(
                [
                    try hearthCreate(users, batchSize: options.batchSize, path: folders[0]),
                    try rawCreate(users, batchSize: options.batchSize, path: folders[1]),
                    try floorCreate(users, batchSize: options.batchSize, path: folders[2]),
                ], count: users.count, chunk: batchChunk, round: round)
            scratch.remove(folders[2])
            if selected("create500") {
                createBatch.hearth.append(times[0])
                createBatch.raw.append(times[1])
                createBatch.floor.append(times[2])
                line.append(
                    "create\(options.batchSize) \(formatted(times[0]))/\(formatted(times[1])) (floor \(formatted(times[2])))")
            }
            if selected("get") {
                // Reads go to the two databases just loaded with the same documents, both
                // compacted first: the same settled layout, and no background compaction.
                try compactFolder(folders[0])
                try compactFolder(folders[1])
                let reads = try interleave(
                    [try hearthGet(users, path: folders[0]), try rawGet(users, path: folders[1])],
                    count: users.count, chunk: chunk, round: round)
                get.hearth.append(reads[0])
                get.raw.append(reads[1])
                line.append("get \(formatted(reads[0]))/\(formatted(reads[1]))")
            }
            scratch.remove(folders[0])
            scratch.remove(folders[1])
        }
        print("round \(round), Hearth/raw ns per document: " + line.joined(separator: ", "))
    }

    print()
    let workloads = [createOne, createBatch, get].filter { !$0.hearth.isEmpty }
    printTable(workloads)
    print()
    let floors = workloads.filter { !$0.floor.isEmpty }
    if !floors.isEmpty {
        print("For reference, not a goal: raw LevelDB doing the least a create needs, an existence seek per")
        print("document plus the same puts (the `exists: false` precondition cannot use the bloom filter):")
        let header = padded("workload", 34, left: true) + padded("floor ns/op", 14) + padded("floor/raw", 12)
            + padded("Hearth/floor", 14)
        print(header)
        print(String(repeating: "-", count: header.count))
        for workload in floors {
            print(
                padded(workload.label, 34, left: true) + padded(formatted(workload.bestFloor), 14)
                    + padded(formatted(workload.bestFloor / workload.bestRaw, 2), 12)
                    + padded(formatted(workload.bestHearth / workload.bestFloor, 2), 14))
        }
        print()
    }
    let failed = workloads.filter { !$0.passes }
    if failed.isEmpty {
        print("All goals met.")
    } else {
        print("GOAL MISSED: " + failed.map { "\($0.label) (ratio \(formatted($0.ratio, 2)) > \(formatted($0.goal, 0)))" }.joined(separator: "; "))
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "rules" {
        let file = arguments.count >= 3 && arguments[1] == "--rules" ? arguments[2] : "rules/firestore.rules"
        try runRulesDecision(rulesFile: file)
    } else if arguments.first == "rules-fuzz" {
        try runRulesFuzz(Array(arguments.dropFirst()))
    } else if arguments.first == "listeners" {
        var commits = 2000
        var listeners = 10_000
        var rounds = 2
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { fail("\(flag) needs a positive integer") }
            switch flag {
            case "--commits": commits = value
            case "--listeners": listeners = value
            case "--rounds": rounds = value
            default: fail("unknown argument '\(flag)'")
            }
        }
        try await runListeners(commits: commits, manyListeners: listeners, rounds: rounds)
    } else if arguments.first == "client" {
        try await runClient(parseClientOptions(arguments.dropFirst()))   // ClientBenchmark.swift
    } else if arguments.first == "portability" {
        try runPortability(parsePortabilityOptions(arguments.dropFirst()))   // PortabilityBenchmark.swift
    } else if arguments.first == "offline" {
        try await runOffline(parseOfflineOptions(arguments.dropFirst()))   // OfflineBenchmark.swift
    } else if arguments.first == "queries" {
        try runQueries(parseQueryOptions(arguments.dropFirst()))
    } else {
        try runStorage(parseOptions(arguments))
    }
} catch {
    FileHandle.standardError.write(Data("HearthBenchmarks: \(error)\n".utf8))
    exit(1)
}

