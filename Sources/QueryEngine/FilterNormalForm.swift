package import DocumentModel

/// A compiled filter in disjunctive normal form, and Firestore's limits on it.
///
/// Firestore counts the disjunctions of the normalized filter with `in` and
/// `array-contains-any` expanded into one disjunct per value, and allows at most 30. Measured on
/// Google's emulator: an `AND` whose product of disjunctions exceeds 60 fails at once with a
/// shorter message; `OR` sums are checked only at the end.
package enum FilterNormalForm {
    package static let maxDisjunctions = 30

    /// The conjunctions of `filter` (with `in` and `array-contains-any` kept whole), after
    /// checking the limits that concern the filter's shape.
    package static func conjunctions(of filter: CompiledFilter) throws -> [[QueryPredicate]] {
        let predicates = filter.predicates
        let negations = predicates.filter { predicate in
            switch predicate.test {
            case .field(let op, _): op == .notEqual || op == .notIn
            case .unary(let op): op == .isNotNaN || op == .isNotNull
            }
        }
        if negations.count > 1 {
            throw FirestoreError.invalidArgument(
                "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
        }
        if negations.contains(where: { $0.test.fieldOperator == .notIn }),
            predicates.contains(where: { [.in, .arrayContainsAny].contains($0.test.fieldOperator) }) || filter.containsOr
        {
            throw FirestoreError.invalidArgument(
                "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'.")
        }
        let count = try disjunctionCount(filter)
        if count > maxDisjunctions {
            throw FirestoreError.invalidArgument(
                "Too many disjunctions after normalization. Result had \(count) disjunctions which is more than the "
                    + "maximum of \(maxDisjunctions)")
        }
        let conjunctions = expand(filter)
        for conjunction in conjunctions {
            let arrayFilters = conjunction.filter { [.arrayContains, .arrayContainsAny].contains($0.test.fieldOperator) }
            if arrayFilters.count > 1 {
                throw FirestoreError.invalidArgument("A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction.")
            }
        }
        return conjunctions
    }

    /// The number of disjunctions once `in` and `array-contains-any` are expanded.
    private static func disjunctionCount(_ filter: CompiledFilter) throws -> Int {
        switch filter {
        case .predicate(let predicate):
            switch predicate.test {
            case .field(.in, let list), .field(.arrayContainsAny, let list): return list.arrayValue?.count ?? 1
            default: return 1
            }
        case .or(let filters):
            return try filters.reduce(0) { $0 + (try disjunctionCount($1)) }
        case .and(let filters):
            var product = 1
            for child in filters {
                product *= try disjunctionCount(child)
                if product > 2 * maxDisjunctions {
                    throw FirestoreError.invalidArgument(
                        "Too many disjunctions after normalization, the maximum is \(maxDisjunctions)")
                }
            }
            return product
        }
    }

    /// Distributes `AND` over `OR`.
    private static func expand(_ filter: CompiledFilter) -> [[QueryPredicate]] {
        switch filter {
        case .predicate(let predicate):
            return [[predicate]]
        case .or(let filters):
            return filters.flatMap(expand)
        case .and(let filters):
            var result: [[QueryPredicate]] = [[]]
            for child in filters {
                let alternatives = expand(child)
                result = result.flatMap { prefix in alternatives.map { prefix + $0 } }
            }
            return result
        }
    }
}

extension QueryPredicate.Test {
    /// The field operator, or `nil` for a unary test.
    package var fieldOperator: QueryFilter.FieldOperator? {
        if case .field(let op, _) = self { return op }
        return nil
    }
}

extension CompiledFilter {
    /// Whether the tree holds an `OR`.
    package var containsOr: Bool {
        switch self {
        case .predicate: false
        case .or: true
        case .and(let filters): filters.contains(where: \.containsOr)
        }
    }
}
