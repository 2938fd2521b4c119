import DocumentModel
import SecurityRules

extension RulesQuery {
    /// The constraints of a structured query, as the rules' `list` judgement sees them.
    init(_ query: StructuredQuery) {
        self.init(
            collectionGroup: query.from.allDescendants, filter: query.filter.map(RulesQuery.Filter.init),
            orderBy: query.orderBy.map { Order($0.field, $0.direction == .ascending ? .ascending : .descending) },
            limit: query.limit.map(Int64.init), offset: Int64(query.offset))
    }
}

extension RulesQuery.Filter {
    init(_ filter: QueryFilter) {
        switch filter {
        case .field(let path, let op, let value):
            self = .field(path, RulesQuery.FieldOperator(op), value)
        case .unary(let path, let op):
            let unary: RulesQuery.UnaryOperator =
                switch op {
                case .isNull: .isNull
                case .isNaN: .isNaN
                case .isNotNull: .isNotNull
                case .isNotNaN: .isNotNaN
                }
            self = .unary(path, unary)
        case .composite(.and, let filters):
            self = .and(filters.map(RulesQuery.Filter.init))
        case .composite(.or, let filters):
            self = .or(filters.map(RulesQuery.Filter.init))
        }
    }
}

extension RulesQuery.FieldOperator {
    init(_ op: QueryFilter.FieldOperator) {
        self =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqual
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqual
            case .equal: .equal
            case .notEqual: .notEqual
            case .arrayContains: .arrayContains
            case .in: .in
            case .arrayContainsAny: .arrayContainsAny
            case .notIn: .notIn
            }
    }
}
