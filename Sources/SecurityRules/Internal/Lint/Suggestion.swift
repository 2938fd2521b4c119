/// The known name a mistyped one most likely meant, for "did you mean" hints.
package enum Suggestion {
    /// The candidate nearest to `name`, or `nil` when none is close enough to be a typo.
    ///
    /// Distance counts inserted, deleted, replaced and swapped neighbouring characters, case
    /// aside (`raed` is one swap from `read`, `fals` one insertion from `false`). A candidate
    /// may be at most a third of the name's length away (rounded up), and nearer than the
    /// name's whole length, so that `x` suggests nothing. Ties go to the earlier candidate.
    package static func closest(to name: String, among candidates: [String]) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        let limit = min((typed.count + 2) / 3, typed.count - 1)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = Suggestion.distance(typed, Array(candidate.lowercased().unicodeScalars))
            if distance <= limit, distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The optimal string alignment distance: Levenshtein's, with a swap of two neighbours as
    /// one edit.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Rows i-2, i-1 and i of the table, over the characters of `b`.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
