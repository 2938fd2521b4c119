// HearthBenchmarks: Hearth's storage engine against raw LevelDB doing the same work on the same
// bytes, in the same run. See BENCHMARKS.md.
//
//   swift run -c release HearthBenchmarks storage [--documents N] [--rounds R]

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

      storage        DocumentStore against raw LevelDB over users/<uid> documents:
                     create one per commit, create in commits of 500, get the latest version.
      --documents N  documents per workload (default 100000)
      --rounds R     times each Hearth/raw pair runs, alternating which goes first; the best
                     time of each side is reported (default 2)
      --only W       run only workload W (create1, create500 or get), e.g. under a profiler;
                     repeat for several
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
            rawValues.append(DocumentCodec.encode(Document(name: name, fields: stored, createTime: time, updateTime: time)))
        }
        self.names = names
        self.fields = fields
        self.rawKeys = rawKeys
        self.rawValues = rawValues
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

/// Nanoseconds per operation of `body`, which performs `operations` operations.
func measure(operations: Int, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let elapsed = try clock.measure(body)
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    return nanoseconds / Double(operations)
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
    /// Raw LevelDB doing the least the store's work needs (see `rawSeekPutOne`), if measured.
    var floor: [Double] = []
    var bestFloor: Double { floor.min() ?? .nan }

    var bestHearth: Double { hearth.min() ?? .nan }
    var bestRaw: Double { raw.min() ?? .nan }
    var ratio: Double { bestHearth / bestRaw }
    var passes: Bool { ratio <= goal }
}

/// Hearth: one create per commit.
func hearthCreateOne(_ users: UserSet, path: String) throws -> Double {
    let store = try DocumentStore(path: path, configuration: storeConfiguration())
    defer { try? store.close() }
    let writes = (0..<users.count).map(users.write)
    return try measure(operations: users.count) {
        for write in writes { try store.commit([write]) }
    }
}

/// Raw: one put per document.
func rawPutOne(_ users: UserSet, path: String) throws -> Double {
    let database = try Database(path: path, options: levelDBOptions)
    defer { try? database.close() }
    let keys = users.rawKeys
    let values = users.rawValues
    return try measure(operations: users.count) {
        for index in keys.indices { try database.put(keys[index], values[index]) }
    }
}

/// Raw LevelDB doing the least a one-document create needs, for reference: the existence check
/// the `exists: false` precondition requires (a cursor seek to the document's newest version,
/// as the store does; a bloom-filtered `get` cannot serve a prefix) and the put.
func rawSeekPutOne(_ users: UserSet, path: String) throws -> Double {
    let database = try Database(path: path, options: levelDBOptions)
    defer { try? database.close() }
    let keys = users.rawKeys
    let values = users.rawValues
    var found = 0
    let result = try measure(operations: users.count) {
        for index in keys.indices {
            let cursor = try database.makeCursor()
            cursor.seek(to: users.seekKeys[index])
            if cursor.isValid, cursor.keyHasPrefix(users.versionPrefixes[index]) { found += 1 }
            try database.put(keys[index], values[index])
        }
    }
    guard found == 0 else { throw BenchmarkError("floor: \(found) documents existed before their create") }
    return result
}

/// The same for commits of `batchSize`: one cursor per batch, a seek per document, one write.
func rawSeekPutBatched(_ users: UserSet, batchSize: Int, path: String) throws -> Double {
    let database = try Database(path: path, options: levelDBOptions)
    defer { try? database.close() }
    let keys = users.rawKeys
    let values = users.rawValues
    var found = 0
    let result = try measure(operations: users.count) {
        var start = 0
        while start < keys.count {
            let cursor = try database.makeCursor()
            let batch = WriteBatch()
            for index in start..<min(start + batchSize, keys.count) {
                cursor.seek(to: users.seekKeys[index])
                if cursor.isValid, cursor.keyHasPrefix(users.versionPrefixes[index]) { found += 1 }
                batch.put(keys[index], values[index])
            }
            try database.write(batch)
            start += batchSize
        }
    }
    guard found == 0 else { throw BenchmarkError("floor: \(found) documents existed before their create") }
    return result
}

/// Hearth: creates in commits of `batchSize`. Leaves the store closed in `path`.
func hearthCreateBatched(_ users: UserSet, batchSize: Int, path: String) throws -> Double {
    let store = try DocumentStore(path: path, configuration: storeConfiguration())
    defer { try? store.close() }
    let commits = stride(from: 0, to: users.count, by: batchSize).map { start in
        (start..<min(start + batchSize, users.count)).map(users.write)
    }
    return try measure(operations: users.count) {
        for writes in commits { try store.commit(writes) }
    }
}

/// Raw: write batches of `batchSize` puts (building each batch is part of the work).
func rawPutBatched(_ users: UserSet, batchSize: Int, path: String) throws -> Double {
    let database = try Database(path: path, options: levelDBOptions)
    defer { try? database.close() }
    let keys = users.rawKeys
    let values = users.rawValues
    return try measure(operations: users.count) {
        var start = 0
        while start < keys.count {
            let batch = WriteBatch()
            for index in start..<min(start + batchSize, keys.count) { batch.put(keys[index], values[index]) }
            try database.write(batch)
            start += batchSize
        }
    }
}

/// Hearth: reads the latest version of every document, in random order, from a loaded store.
func hearthGet(_ users: UserSet, path: String) throws -> Double {
    let store = try DocumentStore(path: path, configuration: storeConfiguration())
    defer { try? store.close() }
    let names = users.readOrder.map { users.names[$0] }
    var missing = 0
    let result = try measure(operations: names.count) {
        for name in names {
            if try store.document(name) == nil { missing += 1 }
        }
    }
    guard missing == 0 else { throw BenchmarkError("Hearth found \(missing) of \(names.count) documents missing") }
    return result
}

/// Raw: gets the same keys, in the same order, from a database loaded with the same bytes.
func rawGet(_ users: UserSet, path: String) throws -> Double {
    let database = try Database(path: path, options: levelDBOptions)
    defer { try? database.close() }
    let keys = users.readOrder.map { users.rawKeys[$0] }
    var missing = 0
    let result = try measure(operations: keys.count) {
        for key in keys {
            if try database.get(key) == nil { missing += 1 }
        }
    }
    guard missing == 0 else { throw BenchmarkError("raw LevelDB found \(missing) of \(keys.count) keys missing") }
    return result
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

    var createOne = Workload(label: "create, 1 per commit / put", goal: 3)
    var createBatch = Workload(label: "create, \(options.batchSize) per commit / batch", goal: 2)
    var get = Workload(label: "get latest version / get", goal: 2)

    func selected(_ workload: String) -> Bool { options.only.isEmpty || options.only.contains(workload) }

    for round in 1...options.rounds {
        // Alternate which side goes first, so neither always runs on a warmer (or busier) machine.
        let hearthFirst = round % 2 == 1
        func pair(_ hearth: () throws -> Double, _ raw: () throws -> Double) rethrows -> (Double, Double) {
            if hearthFirst {
                let h = try hearth()
                return (h, try raw())
            }
            let r = try raw()
            return (try hearth(), r)
        }

        var line: [String] = []
        if selected("create1") {
            let hearthOne = scratch.folder("hearth-create1")
            let rawOne = scratch.folder("raw-put1")
            let (h, r) = try pair(
                { try hearthCreateOne(users, path: hearthOne) }, { try rawPutOne(users, path: rawOne) })
            createOne.hearth.append(h)
            createOne.raw.append(r)
            scratch.remove(hearthOne)
            scratch.remove(rawOne)
            let floorOne = scratch.folder("floor-create1")
            let f = try rawSeekPutOne(users, path: floorOne)
            createOne.floor.append(f)
            scratch.remove(floorOne)
            line.append("create1 \(formatted(h))/\(formatted(r)) (floor \(formatted(f)))")
        }

        if selected("create500") || selected("get") {
            let hearthBatch = scratch.folder("hearth-create\(options.batchSize)")
            let rawBatch = scratch.folder("raw-batch\(options.batchSize)")
            let (h, r) = try pair(
                { try hearthCreateBatched(users, batchSize: options.batchSize, path: hearthBatch) },
                { try rawPutBatched(users, batchSize: options.batchSize, path: rawBatch) })
            if selected("create500") {
                createBatch.hearth.append(h)
                createBatch.raw.append(r)
                let floorBatch = scratch.folder("floor-create\(options.batchSize)")
                let f = try rawSeekPutBatched(users, batchSize: options.batchSize, path: floorBatch)
                createBatch.floor.append(f)
                scratch.remove(floorBatch)
                line.append("create\(options.batchSize) \(formatted(h))/\(formatted(r)) (floor \(formatted(f)))")
            }
            if selected("get") {
                // Reads go to the databases just loaded, both compacted first so that neither is
                // read while a background compaction runs and both have the same settled layout.
                try compactFolder(hearthBatch)
                try compactFolder(rawBatch)
                let (h, r) = try pair({ try hearthGet(users, path: hearthBatch) }, { try rawGet(users, path: rawBatch) })
                get.hearth.append(h)
                get.raw.append(r)
                line.append("get \(formatted(h))/\(formatted(r))")
            }
            scratch.remove(hearthBatch)
            scratch.remove(rawBatch)
        }

        print("round \(round) (\(hearthFirst ? "Hearth first" : "raw first")), Hearth/raw ns per op: " + line.joined(separator: ", "))
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

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
do {
    try runStorage(options)
} catch {
    FileHandle.standardError.write(Data("HearthBenchmarks: \(error)\n".utf8))
    exit(1)
}

