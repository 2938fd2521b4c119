import DocumentModel

/// A recorded value as coverage counts it: a fingerprint of the value and its outcome, computed
/// without writing JSON.
///
/// Every evaluation of every recorded expression needs this key, to count repeats of the at
/// most `CoverageStore.distinctValueLimit` values an expression keeps. Writing each value's JSON
/// to compare it cost about a thousand plain decisions, because `request` and its maps are
/// written whole (BENCHMARKS.md, "Rules coverage"); the fingerprint hashes the parts of the value
/// the JSON shows, and JSON is written only for the values kept.
///
/// The key never merges two values whose JSON differs: the JSON writer stops once it has spent
/// a budget of written bytes (`CoverageJSON.valueBudget`), and the fingerprint walks with the
/// same budget, charging each value less than the JSON does (one unit, plus a string's or
/// bytes' length), so it reads at least everything the JSON shows. Values whose JSON is equal
/// but which differ beyond what it shows get different keys; the report merges them by JSON.
struct CoverageKey: Hashable, Sendable {
    let fingerprint: Int
    let outcome: CoverageValue.Outcome

    /// An expression `&&`, `||` or `?:` decided without.
    static let skipped = CoverageKey(fingerprint: 0, outcome: .skipped)

    /// The key of an expression's value. `errorSpans` as for the JSON (`CoverageJSON.coverageValue`).
    init(_ value: RValue, errorSpans: [SourceSpan: SourceSpan]) {
        switch value {
        case .bool(true): self.init(fingerprint: 1, outcome: .true)
        case .bool(false): self.init(fingerprint: 0, outcome: .false)
        case .error(let error):
            // As its JSON: a document read in the first phase has no cause; others name theirs.
            guard error.kind != .unknown else {
                self.init(fingerprint: 0, outcome: .error)
                return
            }
            var hasher = Hasher()
            let span = errorSpans[error.span] ?? error.span
            hasher.combine(span.start)
            hasher.combine(span.end)
            hasher.combineUTF8(error.message)
            self.init(fingerprint: hasher.finalize(), outcome: .error)
        default:
            var hasher = Hasher()
            var budget = CoverageJSON.valueBudget
            CoverageKey.combine(value, into: &hasher, budget: &budget)
            self.init(fingerprint: hasher.finalize(), outcome: .value)
        }
    }

    /// The keys of one evaluation's events. A map several expressions record (`request`,
    /// `request.resource.data`, read by several conditions) is one object, walked once.
    static func keys(of buffer: CoverageBuffer, errorSpans: [SourceSpan: SourceSpan]) -> [CoverageKey] {
        var keysOfMaps: [ObjectIdentifier: CoverageKey] = [:]
        return buffer.events.map { event in
            switch event.event {
            case .skipped:
                return .skipped
            case .value(.map(let map)):
                // The buffer holds the map, so its identifier is not reused during this call.
                if let known = keysOfMaps[ObjectIdentifier(map)] { return known }
                let key = CoverageKey(.map(map), errorSpans: errorSpans)
                keysOfMaps[ObjectIdentifier(map)] = key
                return key
            case .value(let value):
                return CoverageKey(value, errorSpans: errorSpans)
            }
        }
    }

    init(fingerprint: Int, outcome: CoverageValue.Outcome) {
        self.fingerprint = fingerprint
        self.outcome = outcome
    }

    /// Feeds `value` to `hasher` in the order `CoverageJSON.write` writes it, stopping where it
    /// would stop at the latest. Counts and type tags go in too, so that no two different
    /// sequences of parts feed the same bytes.
    private static func combine(_ value: RValue, into hasher: inout Hasher, budget: inout Int) {
        guard budget > 0 else {
            hasher.combine(-1)   // the JSON's `{"truncated":true}`
            return
        }
        budget -= 1
        hasher.combine(value.typeTag)
        switch value {
        case .null, .constraint:
            break
        case .bool(let flag):
            hasher.combine(flag)
        case .int(let number):
            hasher.combine(number)
        case .float(let number):
            hasher.combine(number.bitPattern)
        case .string(let string):
            hasher.combineUTF8(string)
            budget -= string.utf8.count
        case .bytes(let bytes):
            hasher.combine(bytes)
            budget -= bytes.count
        case .timestamp(let time):
            hasher.combine(time)
        case .duration(let duration):
            hasher.combine(duration)
        case .latlng(let point):
            hasher.combine(point.latitude.bitPattern)
            hasher.combine(point.longitude.bitPattern)
        case .path(let path):
            hasher.combine(path.segments.count)
            for segment in path.segments { hasher.combineUTF8(segment) }
        case .list(let values):
            combine(values, into: &hasher, budget: &budget)
        case .set(let set):
            combine(set.elements, into: &hasher, budget: &budget)
        case .vector(let values):
            hasher.combine(values.count)
            for value in values { hasher.combine(value.bitPattern) }
        case .map(let map):
            let entries = map.entries
            hasher.combine(entries.count)
            for entry in entries {
                guard budget > 0 else { break }
                hasher.combineUTF8(entry.key)
                combine(entry.value, into: &hasher, budget: &budget)
            }
        case .mapDiff(let diff):
            for keys in [diff.added, diff.removed, diff.changed, diff.unchanged] {
                hasher.combine(keys.count)
                for key in keys { hasher.combineUTF8(key) }
            }
        case .error(let error):
            hasher.combineUTF8(error.message)
        }
    }

    /// The elements of a list or set, as `CoverageJSON` writes them: while the budget lasts.
    private static func combine(_ values: [RValue], into hasher: inout Hasher, budget: inout Int) {
        hasher.combine(values.count)
        for value in values {
            guard budget > 0 else { break }
            combine(value, into: &hasher, budget: &budget)
        }
    }
}
