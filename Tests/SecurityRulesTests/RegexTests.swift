import Testing

@testable import SecurityRules

/// RE2 syntax as `string.matches()` accepts it: Unicode classes (`\p{Greek}`, `\pL`, `\PN`),
/// their negations, case folding under `(?i)`, `\Q...\E` and the flag and group rules. Every
/// expected outcome was observed on Google's emulator (`'s'.matches('p')` true, false, or an
/// error for a pattern it rejects).
@Suite struct RegexTests {
    enum Outcome: Sendable { case match, noMatch, invalid }

    @Test(arguments: [
        ("\u{3B1}\u{3B2}\u{3B3}", "\\p{Greek}+", .match),
        ("abc", "\\p{Greek}+", .noMatch),
        ("abc", "\\pL+", .match),
        ("a1", "\\pL\\PN", .noMatch),
        ("a1", "\\pL\\pN", .match),
        ("a\u{E9}", "\\PN+", .match),
        ("\u{661}\u{662}", "\\pN+", .match),
        ("\u{661}\u{662}", "\\d+", .noMatch),
        ("\u{3A9}", "\\p{Lu}", .match),
        ("\u{3C9}", "\\p{Lu}", .noMatch),
        ("\u{3C9}", "(?i)\\p{Lu}", .match),
        ("a", "(?i)\\p{Lu}", .match),
        ("a", "(?i)\\P{Lu}", .noMatch),
        ("A", "(?i)\\P{Lu}", .noMatch),
        ("a", "\\p{^Lu}", .match),
        ("A", "\\P{^Lu}", .match),
        ("a", "(?i)[^A]", .noMatch),
        ("b", "(?i)[^A]", .match),
        ("a", "(?i)[^\\p{Lu}]", .noMatch),
        ("1", "(?i)[^\\p{Lu}]", .match),
        ("\u{212A}", "(?i)k", .match),
        ("k", "(?i)\u{212A}", .match),
        ("\u{17F}", "(?i)s", .match),
        ("S", "(?i)\u{17F}", .match),
        ("\u{6C49}\u{5B57}", "\\p{Han}+", .match),
        ("\u{250}", "\\p{Latin}", .match),
        ("x", "\\p{Foo}", .invalid),
        ("x", "\\p{Any}", .match),
        ("\u{1F600}", "\\p{So}", .noMatch),
        ("abcc", "\\Qab\\Ec+", .match),
        ("abab", "\\Qab\\E+", .noMatch),
        ("abbb", "\\Qab\\E+", .match),
        ("", "(?:)*", .match),
        ("a", "^*a", .match),
        ("a b", "a\\b+ b", .match),
        ("ab", "(?P<n>a)(?P<n>b)", .invalid),
        ("ab", "(?P<n>a)(?P<m>b)", .match),
        ("a", "(?)a", .match),
        ("a", "(?-)a", .invalid),
        ("a", "(?i-)a", .invalid),
        ("A", "(?i-s:a)", .match),
        ("a", "(?-:a)", .invalid),
        ("A", "(?i)[a-c]", .match),
        ("k", "(?i)[J-L]", .match),
        ("\u{212A}", "(?i)[j-l]", .match),
        ("\u{212A}", "(?i)[^j-l]", .noMatch),
        ("\u{1C5}", "\\p{Lt}", .match),
        ("\u{1C5}", "(?i)\u{1C6}", .match),
        ("\u{3A3}", "(?i)\u{3C2}", .match),
        ("\u{3C2}", "(?i)\u{3C3}", .match),
        ("\u{1E9E}", "(?i)\u{DF}", .match),
        ("a", "\\pZ", .noMatch),
        (" ", "\\pZ", .match),
        ("\u{378}", "\\p{Cn}", .invalid),
        ("\u{378}", "\\pC", .noMatch),
        ("x", "\\p{L", .invalid),
        ("x", "\\pX", .invalid),
        ("\u{1F60}0", "\\p{Greek}", .noMatch),
        ("\u{2177}", "\\p{Nl}", .match),
        ("\u{2167}", "(?i)\u{2177}", .match),
        ("\u{2177}", "(?i)\\p{Lu}", .noMatch),
        ("\u{24D0}", "(?i)\u{24B6}", .match),
        ("\u{24D0}", "(?i)\\p{Lu}", .noMatch),
        ("\u{24D0}", "(?i)\\p{Lt}", .noMatch),
        ("a", "[\\p{Greek}a]", .match),
        ("\u{3B1}", "[^\\p{Greek}]", .noMatch),
        ("ab", "[[:^alpha:]]b", .noMatch),
        ("1b", "[[:^alpha:]]b", .match),
        ("A", "(?i)[[:^lower:]]", .noMatch),
        ("\u{345}", "(?i)\u{3B9}", .match),
        ("\u{3B9}", "(?i)\u{345}", .match),
        ("\u{399}", "(?i)\\p{Greek}", .match),
        ("\u{AB70}", "(?i)\u{13A0}", .match),
    ] as [(String, String, Outcome)])
    func matchesLikeGoogle(text: String, pattern: String, expected: Outcome) {
        let outcome: Outcome =
            switch RulesRegex(pattern)?.matchesFully(text) {
            case true?: .match
            case false?: .noMatch
            case nil: .invalid
            }
        #expect(outcome == expected, "'\(text)'.matches('\(pattern)')")
    }
}
