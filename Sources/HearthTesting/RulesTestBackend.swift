/// Where a `RulesTestEnvironment` keeps its data and judges its rules.
public enum RulesTestBackend: Sendable, Hashable {
    /// A fresh `DocumentStore` in a temporary folder of this process, with the rules set on
    /// it: no server, a few milliseconds to set up, so every test can have its own.
    case embedded
    /// A running Firestore emulator (Hearth's or Google's) at `host:port`: the rules are
    /// loaded with `PUT /emulator/v1/projects/{project}:securityRules`, data is cleared with
    /// `DELETE .../databases/(default)/documents`, coverage is read from `:ruleCoverage`.
    case emulator(host: String, port: Int)
}
