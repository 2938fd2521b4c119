public import Foundation

/// What the rules' expressions were evaluated to so far: the JSON of the emulator's
/// `:ruleCoverage` endpoint and a readable HTML page.
public struct RulesCoverageReport: Sendable, Hashable {
    /// The report in the JSON shape of Google's emulator's `GET :ruleCoverage`.
    public let json: String
    /// The rules source, each expression annotated with its counts.
    public let html: String

    /// The names the report's files get in a directory.
    public static let jsonFileName = "firestore-coverage.json"
    public static let htmlFileName = "firestore-coverage.html"

    /// Writes `firestore-coverage.json` and `firestore-coverage.html` into `directory`
    /// (created if needed), each replaced atomically.
    ///
    /// - Returns: the two files.
    @discardableResult
    public func write(to directory: URL) throws -> (json: URL, html: URL) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = (
            json: directory.appendingPathComponent(RulesCoverageReport.jsonFileName),
            html: directory.appendingPathComponent(RulesCoverageReport.htmlFileName)
        )
        try Data(json.utf8).write(to: files.json, options: .atomic)
        try Data(html.utf8).write(to: files.html, options: .atomic)
        return files
    }
}
