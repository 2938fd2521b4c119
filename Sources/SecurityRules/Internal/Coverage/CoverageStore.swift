import Synchronization

/// A value as the coverage report shows it: its JSON form, as Google's emulator reports it.
struct CoverageValue: Sendable {
    /// The JSON of the `value` member, such as `{"boolValue":true}`.
    let json: String
    /// The outcome class, for the HTML report.
    let outcome: Outcome

    enum Outcome: Sendable, Hashable {
        case `true`, `false`, error, skipped, value
    }
}

/// The thread-safe counters of a ruleset's coverage.
///
/// Memory stays bounded: each expression keeps at most `distinctValueLimit` distinct values;
/// further distinct values are counted together as `otherValues`. Values are told apart by
/// `CoverageKey`, and only the kept ones are written as JSON.
final class CoverageStore: Sendable {
    struct Stats: Sendable {
        /// How often each kept value was seen.
        var counts: [CoverageKey: Int] = [:]
        /// The kept values in the order first seen, with their JSON.
        var kept: [(key: CoverageKey, value: CoverageValue)] = []
        var otherValues = 0
        var trueCount = 0
        var falseCount = 0
        var errorCount = 0
        var evaluations = 0

        /// Counts one value; `describe` gives its JSON the first time it is kept. (Called on
        /// the element in place, so the dictionaries are not copied.)
        mutating func count(_ key: CoverageKey, describe: () -> CoverageValue) {
            switch key.outcome {
            case .true: trueCount += 1
            case .false: falseCount += 1
            case .error: errorCount += 1
            case .skipped, .value: break
            }
            if key.outcome != .skipped { evaluations += 1 }
            if let count = counts[key] {
                counts[key] = count + 1
            } else if kept.count < CoverageStore.distinctValueLimit {
                counts[key] = 1
                kept.append((key, describe()))
            } else {
                otherValues += 1
            }
        }

        /// The kept values with their counts, values of equal JSON merged (their keys differ
        /// when they differ beyond what the JSON shows).
        var valuesByJSON: [(json: String, count: Int)] {
            var merged: [(json: String, count: Int)] = []
            var indexByJSON: [String: Int] = [:]
            for (key, value) in kept {
                let count = counts[key] ?? 0
                if let index = indexByJSON[value.json] {
                    merged[index].count += count
                } else {
                    indexByJSON[value.json] = merged.count
                    merged.append((value.json, count))
                }
            }
            return merged
        }
    }

    static let distinctValueLimit = 16

    let table: CoverageTable
    let source: SourceText
    private let stats: Mutex<[Stats]>

    init(table: CoverageTable, source: SourceText) {
        self.table = table
        self.source = source
        self.stats = Mutex(Array(repeating: Stats(), count: table.entries.count))
    }

    func reset() {
        stats.withLock { $0 = Array(repeating: Stats(), count: table.entries.count) }
    }

    func snapshot() -> [Stats] {
        stats.withLock { $0 }
    }

    /// Merges one evaluation's events. Keys are computed before taking the lock; the JSON of a
    /// value is written under it, only the first time the value is kept (at most
    /// `distinctValueLimit` times per expression until a reset).
    func merge(_ buffer: CoverageBuffer) {
        guard !buffer.events.isEmpty else { return }
        let keys = CoverageKey.keys(of: buffer, errorSpans: table.errorSpans)
        stats.withLock { all in
            for (event, key) in zip(buffer.events, keys) {
                all[Int(event.id)].count(key) { coverageValue(of: event.event) }
            }
        }
    }

    private func coverageValue(of event: CoverageBuffer.Event) -> CoverageValue {
        switch event {
        case .skipped: CoverageValue(json: "{}", outcome: .skipped)
        case .value(let value): CoverageJSON.coverageValue(value, source: source, errorSpans: table.errorSpans)
        }
    }
}
