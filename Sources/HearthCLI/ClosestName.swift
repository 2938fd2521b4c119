/// The known name a mistyped one was most likely meant to be, for "did you mean" hints.
enum ClosestName {
    /// The candidate within a few edits of `name` (case-insensitively), the nearest first; nil
    /// when none is close enough to be a likely typo.
    static func suggestion(for name: String, among candidates: [String]) -> String? {
        let typed = Array(name.lowercased())
        let limit = max(2, typed.count / 3)
        return candidates
            .map { (candidate: $0, distance: editDistance(typed, Array($0.lowercased()))) }
            .filter { $0.distance <= limit }
            .min { $0.distance < $1.distance }?
            .candidate
    }

    /// The Levenshtein distance between two strings, in characters.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
