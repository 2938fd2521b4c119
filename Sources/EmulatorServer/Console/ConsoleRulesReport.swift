import DocumentModel
import DocumentStore
import SecurityRules

/// What the console shows of a project's rules: the file, its status (`loaded`, `error` when
/// the last reload failed and the last good rules stay in force, `none` for open rules), when
/// the rules in force were loaded, the diagnostics and, for `GET /ui/api/rules/{project}`, the
/// source and coverage of the rules in force.
struct ConsoleRulesReport {
    let project: String
    let rules: ProjectRules
    let store: DocumentStore

    /// `{"fileName", "status", "loadedAt", "diagnostics"}`, as the overview lists each project.
    func summary() -> JSONValue {
        .object(summaryMembers())
    }

    /// `{"project", "fileName", "source", "status", "loadedAt", "diagnostics", "coverage"}`.
    func full() -> JSONValue {
        let ruleset = store.rules(project: project)
        return .object(
            [ConsoleJSON.member("project", .string(project))] + summaryMembers(ruleset: ruleset) + [
                ConsoleJSON.member("source", .string(ruleset?.source ?? "")),
                ConsoleJSON.member("coverage", ConsoleJSON.coverage(ruleset?.coverage)),
            ])
    }

    private func summaryMembers(ruleset: Ruleset? = nil) -> [JSONValue.Member] {
        let status = rules.status(project: project)
        let state =
            switch status {
            case nil: "none"
            case let status? where status.failed: "error"
            case .some: "loaded"
            }
        return [
            ConsoleJSON.member("fileName", (status?.fileName ?? ruleset?.fileName).map(JSONValue.string) ?? .null),
            ConsoleJSON.member("status", .string(state)),
            ConsoleJSON.member("loadedAt", status?.loadedAt.map(ConsoleJSON.time) ?? .null),
            ConsoleJSON.member("diagnostics", ConsoleJSON.diagnostics(status?.diagnostics ?? [])),
        ]
    }
}
