public import DocumentModel
public import SecurityRules

extension DocumentStore {
    /// Sets (or, with `nil`, removes) the security rules of one project, which apply there
    /// instead of the default rules (`setDefaultRules(_:)`). Without either, every request is
    /// allowed, as in Google's emulator started without a rules file.
    public func setRules(_ ruleset: Ruleset?, project: String) {
        rulesets.setOwn(ruleset, project: project)
    }

    /// Sets (or, with `nil`, removes) the default security rules: those of every project
    /// without rules of its own (`setRules(_:project:)`), as the server's rules file is.
    ///
    /// Rules that record coverage are compiled again for each project the first time its rules
    /// are asked for, so that a project's coverage counts its own requests only.
    public func setDefaultRules(_ ruleset: Ruleset?) {
        rulesets.setDefault(ruleset)
    }

    /// The default security rules, if any (see `setDefaultRules(_:)`).
    public var defaultRules: Ruleset? {
        rulesets.defaultRules
    }

    /// The security rules in force for a project: its own, else its copy of the default rules,
    /// else `nil` (every request allowed).
    public func rules(project: String) -> Ruleset? {
        rulesets.rules(project: project)
    }

    /// Whether a project has security rules of its own (`setRules(_:project:)`).
    public func hasOwnRules(project: String) -> Bool {
        rulesets.hasOwn(project: project)
    }

    /// The projects with security rules: those with rules of their own and, while there are
    /// default rules, every project whose rules were asked for (before the default rules were
    /// last replaced, too).
    public var projectsWithRules: Set<String> {
        rulesets.projects
    }

    /// Judges the rules' `get` for documents already read together (at one read time, or in a
    /// transaction): each one, or its absence, is `resource`. Any denial fails the whole read,
    /// as in Google's emulator. No read time is involved, so a snapshot older than the retention
    /// window (a store idle for long, or one never written) is judged like any other.
    public func authorizeReads(_ names: [DocumentName], documents: [Document?], as identity: RequestIdentity) throws {
        guard !identity.isAdmin else { return }
        for (name, document) in zip(names, documents) {
            try authorizeRead(name, document: document, as: identity)
        }
    }

    /// Judges the rules' `get` of `name` as `identity`: `document` (`nil`: missing) is
    /// `resource`. Nothing to judge for the admin.
    func authorizeRead(_ name: DocumentName, document: Document?, as identity: RequestIdentity) throws {
        guard !identity.isAdmin, let ruleset = rules(project: name.databaseID.project) else { return }
        let request = RulesRequest(
            database: name.databaseID, path: name.path, method: .get, auth: identity.auth,
            time: configuration.clock.now(), resource: document, newResource: nil)
        try enforce(
            ruleset.evaluate(request, lookup: StoreRulesLookup(store: self, pending: [:])), for: request, by: ruleset,
            recorder: RulesDecisionRecorder.current)
    }

    /// Checks a query's `list` permission as `identity`, judged from its constraints alone (rules
    /// are not filters), without running it.
    ///
    /// - Throws: `.permissionDenied` naming the rules evaluated.
    public func authorize(_ query: Query, as identity: RequestIdentity) throws {
        guard !identity.isAdmin, let ruleset = rules(project: query.database.project) else { return }
        let structured = query.structured
        let path = query.parent.segments + [structured.from.collectionID]
        let request = RulesRequest(
            database: query.database, path: try ResourcePath(segments: path.filter { !$0.isEmpty }), method: .list,
            auth: identity.auth, time: configuration.clock.now(), query: RulesQuery(structured),
            accessScope: .multipleDocuments)
        try enforce(
            ruleset.evaluate(request, lookup: StoreRulesLookup(store: self, pending: [:])), for: request, by: ruleset,
            recorder: RulesDecisionRecorder.current)
    }

    /// The check a commit runs under its lock, once every write is applied: each write's method
    /// follows its precondition, else whether the document existed before it. The request's
    /// decision recorder, if any, is taken now, so the check records to it wherever it runs.
    func writeAuthorizer(for identity: RequestIdentity, writes: [Write]) -> CommitAuthorizer? {
        guard !identity.isAdmin, let first = writes.first,
            let ruleset = rules(project: first.name.databaseID.project)
        else { return nil }
        let recorder = RulesDecisionRecorder.current
        return { commitTime, existedBefore, before, after in
            let lookup = StoreRulesLookup(store: self, pending: after)
            let tracker = RulesAccessTracker()
            for (index, write) in writes.enumerated() {
                let method: RulesMethod
                switch (write.operation, write.precondition) {
                case (.delete, _): method = .delete
                case (_, .exists(false)): method = .create
                case (_, .exists(true)): method = .update
                default: method = existedBefore[index] ? .update : .create
                }
                let request = RulesRequest(
                    database: write.name.databaseID, path: write.name.path, method: method, auth: identity.auth,
                    time: commitTime, resource: before[write.name] ?? nil,
                    newResource: method == .delete ? nil : (after[write.name] ?? nil),
                    accessScope: writes.count > 1 ? .multipleDocuments : .singleDocument)
                try self.enforce(
                    ruleset.evaluate(request, lookup: lookup, accessTracker: tracker), for: request, by: ruleset,
                    recorder: recorder)
            }
        }
    }

    /// Reports `decision` on `request` to `recorder`, if any, then fails unless it allows.
    private func enforce(
        _ decision: RulesDecision, for request: RulesRequest, by ruleset: Ruleset, recorder: RulesDecisionRecorder?
    ) throws {
        recorder?.record(decision, for: request, by: ruleset)
        guard decision.allowed else {
            throw FirestoreError(.permissionDenied, decision.message)
        }
    }
}

/// Checks a commit's writes against security rules under the commit lock: the commit time,
/// whether each write's document existed just before it, and each touched document's state
/// before and after the commit (`nil` inside: missing).
typealias CommitAuthorizer = @Sendable (
    _ commitTime: Timestamp, _ existedBefore: [Bool], _ before: [DocumentName: Document?],
    _ after: [DocumentName: Document?]
) throws -> Void
