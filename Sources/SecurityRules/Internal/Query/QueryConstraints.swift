import DocumentModel

/// What one conjunction of a query's filters says about one field of the documents it returns.
struct FieldKnowledge: Sendable {
    var equal: RValue?
    var lower: (value: RValue, inclusive: Bool)?
    var upper: (value: RValue, inclusive: Bool)?
    var excluded: [RValue] = []
    var contains: [RValue] = []
    var notNull = false

    var isEmpty: Bool {
        equal == nil && lower == nil && upper == nil && excluded.isEmpty && contains.isEmpty && !notNull
    }

    mutating func add(_ op: RulesQuery.FieldOperator, _ value: RValue) {
        switch op {
        case .equal: equal = value
        case .notEqual, .notIn:
            if op == .notIn, case .list(let values) = value { excluded += values } else { excluded.append(value) }
            notNull = true
        case .lessThan, .lessThanOrEqual:
            let inclusive = op == .lessThanOrEqual
            if let current = upper, let order = Operators.order(value, current.value),
                order > 0 || (order == 0 && inclusive && !current.inclusive)
            {
                break
            }
            upper = (value, inclusive)
        case .greaterThan, .greaterThanOrEqual:
            let inclusive = op == .greaterThanOrEqual
            if let current = lower, let order = Operators.order(value, current.value),
                order < 0 || (order == 0 && inclusive && !current.inclusive)
            {
                break
            }
            lower = (value, inclusive)
        case .arrayContains: contains.append(value)
        // Expanded into disjunctions before they get here.
        case .in, .arrayContainsAny: break
        }
    }
}

/// The knowledge of one disjunct of a query's filter, by field path.
struct QueryConstraints: Sendable {
    var fields: [[String]: FieldKnowledge] = [:]

    /// The disjuncts of a filter in disjunctive normal form: `in` and `array-contains-any`
    /// become one disjunct per value, as Google's evaluator judges them. At most `limit`.
    static func disjuncts(of filter: RulesQuery.Filter?, limit: Int = 512) -> [QueryConstraints] {
        guard let filter else { return [QueryConstraints()] }
        typealias Atom = (path: [String], op: RulesQuery.FieldOperator, value: RValue)
        func expand(_ filter: RulesQuery.Filter) -> [[Atom]] {
            switch filter {
            case .field(let path, let op, let value):
                switch (op, value) {
                case (.in, .array(let values)):
                    return values.map { [(path.segments, .equal, RValue($0))] }
                case (.arrayContainsAny, .array(let values)):
                    return values.map { [(path.segments, .arrayContains, RValue($0))] }
                default:
                    return [[(path.segments, op, RValue(value))]]
                }
            case .unary(let path, let op):
                switch op {
                case .isNull: return [[(path.segments, .equal, .null)]]
                case .isNaN: return [[(path.segments, .equal, .float(.nan))]]
                case .isNotNull: return [[(path.segments, .notEqual, .null)]]
                case .isNotNaN: return [[(path.segments, .notEqual, .float(.nan))]]
                }
            case .or(let filters):
                return Array(filters.flatMap(expand).prefix(limit))
            case .and(let filters):
                var result: [[Atom]] = [[]]
                for part in filters {
                    let options = expand(part)
                    var next: [[Atom]] = []
                    for prefix in result {
                        for option in options where next.count < limit { next.append(prefix + option) }
                    }
                    result = next
                }
                return result
            }
        }
        return expand(filter).map { atoms in
            var constraints = QueryConstraints()
            for atom in atoms { constraints.fields[atom.path, default: FieldKnowledge()].add(atom.op, atom.value) }
            return constraints
        }
    }
}

/// `resource` in a `list` rule: only `data`, whose fields are what the query's filters say.
final class QueryResourceObject: RObject {
    let constraints: QueryConstraints
    let keys = ["data"]

    init(_ constraints: QueryConstraints) {
        self.constraints = constraints
    }

    func value(for key: String) -> RValue? {
        key == "data" ? .map(RMap(object: QueryDataObject(constraints, prefix: []))) : nil
    }
}

/// `resource.data` (or a map inside it) in a `list` rule. A field the filters fix to one value
/// is that value; a field they constrain otherwise is a constraint; any other field is undefined.
final class QueryDataObject: RObject {
    let constraints: QueryConstraints
    let prefix: [String]

    init(_ constraints: QueryConstraints, prefix: [String]) {
        self.constraints = constraints
        self.prefix = prefix
    }

    var keys: [String] {
        Set(constraints.fields.keys.filter { $0.count > prefix.count && Array($0.prefix(prefix.count)) == prefix }
            .map { $0[prefix.count] }).sorted { compareUTF8($0, $1) < 0 }
    }

    func value(for key: String) -> RValue? {
        let path = prefix + [key]
        if let knowledge = constraints.fields[path], !knowledge.isEmpty {
            if let equal = knowledge.equal { return equal }
            return .constraint(FieldConstraint(knowledge))
        }
        if constraints.fields.keys.contains(where: { $0.count > path.count && Array($0.prefix(path.count)) == path }) {
            return .map(RMap(object: QueryDataObject(constraints, prefix: path)))
        }
        return nil
    }
}
