import DocumentModel

/// Finds the match blocks whose paths match a request, and binds their variables.
///
/// A request path is `/databases/{database}/documents/...`. For `list`, its last segment is an
/// unknown document id (matched only by a variable, whose value is then an error); for a
/// collection group query, an unknown run of segments precedes the collection id, which only a
/// recursive wildcard `{name=**}` can absorb. A recursive wildcard takes what the segments
/// after it leave: zero or more segments in rules version 2, one or more in version 1.
struct PathMatcher {
    enum Segment {
        case known(String)
        case unknownDocument
        case anyPrefix
    }

    let database: String
    /// The request's path segments (for `list`, the collection path).
    let path: [String]
    /// For a collection group query, where the unknown run of segments goes (before the
    /// collection id); `nil` otherwise.
    let anyPrefixAt: Int?
    /// Whether the last segment is an unknown document id (`list`).
    let unknownLast: Bool
    let count: Int
    let version: Int

    init(request: RulesRequest, version: Int) {
        self.init(
            database: request.database.database, path: request.path.segments, method: request.method,
            collectionGroup: request.query?.collectionGroup == true, version: version)
    }

    init(database: String, path: [String], method: RulesMethod, collectionGroup: Bool, version: Int) {
        self.database = database
        self.path = path
        self.version = version
        if method == .list {
            unknownLast = true
            anyPrefixAt = collectionGroup && !path.isEmpty ? 3 + path.count - 1 : nil
            count = 3 + path.count + 1 + (anyPrefixAt == nil ? 0 : 1)
        } else {
            unknownLast = false
            anyPrefixAt = nil
            count = 3 + path.count
        }
    }

    /// The segment at an index of the full path `/databases/{database}/documents/...`.
    @inline(__always)
    func segment(_ index: Int) -> Segment {
        switch index {
        case 0: return .known("databases")
        case 1: return .known(database)
        case 2: return .known("documents")
        default:
            if unknownLast && index == count - 1 { return .unknownDocument }
            if let anyPrefixAt {
                if index == anyPrefixAt { return .anyPrefix }
                return .known(path[index > anyPrefixAt ? index - 4 : index - 3])
            }
            return .known(path[index - 3])
        }
    }

    /// The matched blocks with their variable values (indexed by position in the chain), in
    /// depth-first source order.
    func matches(in roots: [CompiledMatch]) -> [(match: CompiledMatch, values: [RValue])] {
        var result: [(match: CompiledMatch, values: [RValue])] = []
        for root in roots { visit(root, checkedPrefix: 0, into: &result) }
        return result
    }

    /// Calls `body` for each matched block having an allow statement for `method`, with its
    /// variable values, in depth-first source order. For a block without a glob the values
    /// are `nil`: `value(at:of:request:)` gives them.
    func visitMatches(
        in roots: [CompiledMatch], method: MethodSet, _ body: (CompiledMatch, [RValue]?) -> Void
    ) {
        for root in roots { visit(root, checkedPrefix: 0, method: method, body) }
    }

    private func visit(
        _ match: CompiledMatch, checkedPrefix: Int, method: MethodSet, _ body: (CompiledMatch, [RValue]?) -> Void
    ) {
        var checked = checkedPrefix
        if match.globIndex == nil {
            let chain = match.chain
            guard chain.count <= count else { return }
            while checked < chain.count {
                guard matchesOne(chain[checked], checked) else { return }
                checked += 1
            }
        }
        if match.methods.contains(method) {
            if match.globIndex == nil {
                // `visit` has matched every segment: the values are the path's.
                if match.chain.count == count { body(match, nil) }
            } else if let values = bind(match.chain, globIndex: match.globIndex) {
                body(match, values)
            }
        }
        guard !match.childrenDisabled else { return }
        for child in match.children {
            visit(child, checkedPrefix: match.globIndex == nil ? checked : 0, method: method, body)
        }
    }

    /// Visits a block whose chain's first `checkedPrefix` segments are known to match.
    private func visit(
        _ match: CompiledMatch, checkedPrefix: Int, into result: inout [(match: CompiledMatch, values: [RValue])]
    ) {
        var checked = checkedPrefix
        if match.globIndex == nil {
            let chain = match.chain
            guard chain.count <= count else { return }
            while checked < chain.count {
                guard matchesOne(chain[checked], checked) else { return }
                checked += 1
            }
        }
        if !match.allows.isEmpty, let values = bind(match.chain, globIndex: match.globIndex) {
            result.append((match, values))
        }
        guard !match.childrenDisabled else { return }
        for child in match.children { visit(child, checkedPrefix: match.globIndex == nil ? checked : 0, into: &result) }
    }

    /// Whether a pattern segment can match the path's segment at `index` (no glob).
    @inline(__always)
    private func matchesOne(_ pattern: PatternSegment, _ index: Int) -> Bool {
        switch pattern {
        case .literal(let text):
            switch index {
            case 0: return text == "databases"
            case 1: return rulesStringEqual(text, database)
            case 2: return text == "documents"
            default:
                if case .known(let value) = segment(index) { return rulesStringEqual(text, value) }
                return false
            }
        case .variable:
            if case .anyPrefix = segment(index) { return false }
            return true
        case .glob:
            return false
        }
    }

    /// The value `bind` gives the segment at `index` of `chain`, a chain without a glob that
    /// matches `request`'s path.
    static func value(at index: Int, of chain: [PatternSegment], request: RulesRequest) -> RValue {
        guard case .variable = chain[index] else { return .null }
        switch index {
        case 1: return .string(request.database.database)
        case 3...:
            let segments = request.path.segments
            // A list's last segment is the unknown document id.
            return index - 3 < segments.count ? .string(segments[index - 3]) : RError.nullValue(span: .none)
        default: return .string(index == 0 ? "databases" : "documents")
        }
    }

    /// The value a pattern segment binds, `.null` for a literal, or `nil` if it does not match.
    private func one(_ pattern: PatternSegment, _ segment: Segment) -> RValue? {
        switch (pattern, segment) {
        case (_, .anyPrefix): return nil
        case (.literal(let text), .known(let value)): return rulesStringEqual(text, value) ? .null : nil
        case (.literal, .unknownDocument): return nil
        case (.variable, .known(let value)): return .string(value)
        case (.variable, .unknownDocument): return RError.nullValue(span: .none)
        case (.glob, _): return nil
        }
    }

    private func bind(_ chain: [PatternSegment], globIndex: Int?) -> [RValue]? {
        guard let glob = globIndex else {
            // `visit` has matched every segment of a chain without a glob: only the values remain.
            guard chain.count == count else { return nil }
            return chain.indices.map { index in
                guard case .variable = chain[index] else { return .null }
                if case .known(let value) = segment(index) { return .string(value) }
                return RError.nullValue(span: .none)
            }
        }
        let after = chain.count - glob - 1
        let absorbed = count - glob - after
        guard absorbed >= (version >= 2 ? 0 : 1) else { return nil }
        var values: [RValue] = []
        for index in 0..<glob {
            guard let value = one(chain[index], segment(index)) else { return nil }
            values.append(value)
        }
        var captured: [String] = []
        var knowable = true
        for index in glob..<(glob + absorbed) {
            if case .known(let text) = segment(index) { captured.append(text) } else { knowable = false }
        }
        values.append(knowable ? .path(RPath(segments: captured)) : RError.nullValue(span: .none))
        for index in 0..<after {
            guard let value = one(chain[glob + 1 + index], segment(glob + absorbed + index)) else { return nil }
            values.append(value)
        }
        return values
    }
}
