import Synchronization

/// A value as coverage counts it: in the JSON form Google's emulator reports, so equal values
/// merge.
struct CoverageValue: Hashable, Sendable {
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
/// further distinct values are counted together as `otherValues`.
final class CoverageStore: Sendable {
    struct Stats: Sendable {
        var values: [CoverageValue: Int] = [:]
        var order: [CoverageValue] = []
        var otherValues = 0
        var trueCount = 0
        var falseCount = 0
        var errorCount = 0
        var evaluations = 0
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

    /// Merges one evaluation's events.
    func merge(_ buffer: CoverageBuffer) {
        guard !buffer.events.isEmpty else { return }
        let converted = buffer.events.map { event -> (Int32, CoverageValue) in
            switch event.event {
            case .skipped: return (event.id, CoverageValue(json: "{}", outcome: .skipped))
            case .value(let value): return (event.id, CoverageJSON.coverageValue(value, source: source, errorSpans: table.errorSpans))
            }
        }
        stats.withLock { all in
            for (id, value) in converted {
                var entry = all[Int(id)]
                switch value.outcome {
                case .true: entry.trueCount += 1
                case .false: entry.falseCount += 1
                case .error: entry.errorCount += 1
                case .skipped, .value: break
                }
                if value.outcome != .skipped { entry.evaluations += 1 }
                if let count = entry.values[value] {
                    entry.values[value] = count + 1
                } else if entry.order.count < CoverageStore.distinctValueLimit {
                    entry.values[value] = 1
                    entry.order.append(value)
                } else {
                    entry.otherValues += 1
                }
                all[Int(id)] = entry
            }
        }
    }
}
