import DocumentModel

/// A micro-benchmark of rule decisions, for benchmark tools: the median time to decide one
/// request against a compiled ruleset, beside the median of a no-op decision (a ruleset that
/// allows the same request unconditionally) measured in the same run.
///
/// ```swift
/// let result = try RulesBenchmark.profileCreate(rulesSource: text)
/// print("create: \(result.medianNanoseconds) ns, \(result.ratio)× a no-op decision")
/// ```
public enum RulesBenchmark {
    /// The result of a benchmark.
    public struct Result: Sendable, Hashable, CustomStringConvertible {
        /// The median time of one decision, in nanoseconds.
        public let medianNanoseconds: Double
        /// The median time of one no-op decision, in nanoseconds.
        public let noOpMedianNanoseconds: Double
        /// Whether the measured request was allowed (a benchmark of the wrong verdict is void).
        public let allowed: Bool

        /// How many no-op decisions one decision costs.
        public var ratio: Double { medianNanoseconds / max(noOpMedianNanoseconds, 1) }

        public var description: String {
            let median = (medianNanoseconds * 10).rounded() / 10
            let noOp = (noOpMedianNanoseconds * 10).rounded() / 10
            let ratio = (self.ratio * 100).rounded() / 100
            return "median \(median) ns per decision (allowed: \(allowed)); no-op \(noOp) ns; ratio \(ratio)"
        }
    }

    /// Times `request` against `ruleset`: `samples` samples of `batch` decisions each; the
    /// median of the per-decision times of the samples.
    public static func measure(
        _ ruleset: Ruleset, _ request: RulesRequest, lookup: any DocumentLookup = NoDocuments(),
        samples: Int = 31, batch: Int = 2000
    ) -> (medianNanoseconds: Double, allowed: Bool) {
        let clock = ContinuousClock()
        var allowed = false
        for _ in 0..<batch { allowed = ruleset.evaluate(request, lookup: lookup).allowed }
        var times: [Double] = []
        for _ in 0..<samples {
            let elapsed = clock.measure {
                for _ in 0..<batch { allowed = ruleset.evaluate(request, lookup: lookup).allowed }
            }
            let nanoseconds =
                Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            times.append(nanoseconds / Double(batch))
        }
        times.sort()
        return (times[times.count / 2], allowed)
    }

    /// Times the creation of a user profile (`users/alice`, with the fields of the profile
    /// service: uid, email, displayName, photoURL, createdAt and updatedAt at the request time)
    /// under `rulesSource`, such as the project's `rules/firestore.rules`.
    ///
    /// - Throws: ``RulesCompilationError`` if the rules do not compile.
    public static func profileCreate(rulesSource: String, samples: Int = 31, batch: Int = 2000) throws -> Result {
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
        let request = try profileCreateRequest()
        let measured = measure(ruleset, request, samples: samples, batch: batch)
        let baseline = measure(noOp, request, samples: samples, batch: batch)
        return Result(
            medianNanoseconds: measured.medianNanoseconds, noOpMedianNanoseconds: baseline.medianNanoseconds,
            allowed: measured.allowed)
    }

    /// The request `profileCreate` decides.
    public static func profileCreateRequest() throws -> RulesRequest {
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
