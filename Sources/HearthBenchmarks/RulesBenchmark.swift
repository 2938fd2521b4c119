import DocumentModel
import SecurityRules

/// A micro-benchmark of rule decisions, for benchmark tools: the median time to decide one
/// request against a compiled ruleset, beside the median of a no-op decision (a ruleset that
/// allows the same request unconditionally) measured in the same run.
///
/// ```swift
/// let result = try RulesBenchmark.profileCreate(rulesSource: text)
/// print("create: \(result.medianNanoseconds) ns, \(result.ratio)× a no-op decision")
/// ```
enum RulesBenchmark {
    /// The result of a benchmark.
    struct Result: Sendable, Hashable, CustomStringConvertible {
        /// The median time of one decision, in nanoseconds.
        let medianNanoseconds: Double
        /// The median time of one no-op decision, in nanoseconds.
        let noOpMedianNanoseconds: Double
        /// Whether the measured request was allowed (a benchmark of the wrong verdict is void).
        let allowed: Bool
        /// The median time of the same decision by the same rules recording coverage, as the
        /// server's rulesets do, in nanoseconds.
        let coverageMedianNanoseconds: Double

        /// How many decisions without coverage one decision recording it costs.
        var coverageRatio: Double { coverageMedianNanoseconds / max(medianNanoseconds, 1) }

        /// How many no-op decisions one decision costs.
        var ratio: Double { medianNanoseconds / max(noOpMedianNanoseconds, 1) }

        var description: String {
            let median = (medianNanoseconds * 10).rounded() / 10
            let noOp = (noOpMedianNanoseconds * 10).rounded() / 10
            let ratio = (self.ratio * 100).rounded() / 100
            let coverage = (coverageMedianNanoseconds * 10).rounded() / 10
            return "median \(median) ns per decision (allowed: \(allowed)); no-op \(noOp) ns; ratio \(ratio); "
                + "recording coverage \(coverage) ns"
        }
    }

    /// Times `request` against `ruleset`: `samples` samples of `batch` decisions each; the
    /// median of the per-decision times of the samples.
    static func measure(
        _ ruleset: Ruleset, _ request: RulesRequest, lookup: any DocumentLookup = NoDocuments(),
        samples: Int = 401, batch: Int = 200
    ) -> (medianNanoseconds: Double, allowed: Bool) {
        let result = measureInterleaved([ruleset], request, lookup: lookup, samples: samples, batch: batch)
        return (result.medians[0], result.allowed[0])
    }

    /// Times `request` against each ruleset, alternating between them sample by sample so that
    /// a change in the machine's load affects all alike. Samples are short (a few hundred
    /// decisions, well under a scheduler time slice) and many: on a shared machine most are not
    /// interrupted, and the median is the time of an undisturbed decision.
    static func measureInterleaved(
        _ rulesets: [Ruleset], _ request: RulesRequest, lookup: any DocumentLookup, samples: Int, batch: Int
    ) -> (medians: [Double], allowed: [Bool]) {
        let clock = ContinuousClock()
        var allowed = [Bool](repeating: false, count: rulesets.count)
        var times = [[Double]](repeating: [], count: rulesets.count)
        for (index, ruleset) in rulesets.enumerated() {
            for _ in 0..<batch { allowed[index] = ruleset.evaluate(request, lookup: lookup).allowed }
        }
        for _ in 0..<samples {
            for (index, ruleset) in rulesets.enumerated() {
                var verdict = false
                let elapsed = clock.measure {
                    for _ in 0..<batch { verdict = ruleset.evaluate(request, lookup: lookup).allowed }
                }
                allowed[index] = verdict
                let nanoseconds =
                    Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
                times[index].append(nanoseconds / Double(batch))
            }
        }
        let medians = times.map { samples in samples.sorted()[samples.count / 2] }
        return (medians, allowed)
    }

    /// Times the creation of a user profile (`users/alice`, with the fields of the profile
    /// service: uid, email, displayName, photoURL, createdAt and updatedAt at the request time)
    /// under `rulesSource`, such as the project's `rules/firestore.rules`, beside a no-op
    /// decision and the same rules recording coverage.
    ///
    /// - Throws: ``RulesCompilationError`` if the rules do not compile.
    static func profileCreate(rulesSource: String, samples: Int = 401, batch: Int = 200) throws -> Result {
        let ruleset = try Ruleset(source: rulesSource)
        let noOp = try Ruleset(
            source: """
                rules_version = '2';
                service cloud.firestore {
                  match /databases/{database}/documents {
                    match /users/{userId} { allow create: if true; }
                  }
                }
                """)
        let recording = try Ruleset(source: rulesSource, options: .init(recordsCoverage: true))
        let request = try profileCreateRequest()
        let result = measureInterleaved(
            [ruleset, noOp, recording], request, lookup: NoDocuments(), samples: samples, batch: batch)
        guard result.allowed[2] == result.allowed[0] else {
            throw BenchmarkError("the rules recording coverage gave another verdict")
        }
        return Result(
            medianNanoseconds: result.medians[0], noOpMedianNanoseconds: result.medians[1], allowed: result.allowed[0],
            coverageMedianNanoseconds: result.medians[2])
    }

    /// The request `profileCreate` decides.
    static func profileCreateRequest() throws -> RulesRequest {
        let database = try DatabaseID(project: "demo-benchmark")
        let now = try Timestamp(seconds: 1_750_000_000, nanoseconds: 123_456_000)
        let name = try DocumentName(database, "users/alice")
        let fields: MapValue = [
            "uid": "alice", "email": "alice@example.com", "displayName": "Alice Liddell",
            "photoURL": "https://example.com/photos/alice.png", "createdAt": .timestamp(now),
            "updatedAt": .timestamp(now),
        ]
        return RulesRequest(
            database: database, path: name.path, method: .create,
            auth: RulesAuth(uid: "alice", token: ["sub": "alice", "email": "alice@example.com"]), time: now,
            newResource: Document(name: name, fields: fields, createTime: now, updateTime: now))
    }
}
