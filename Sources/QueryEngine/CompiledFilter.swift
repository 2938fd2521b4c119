package import DocumentModel

/// A query's filter with its predicates compiled, for evaluating fetched documents.
package indirect enum CompiledFilter: Sendable {
    case predicate(QueryPredicate)
    case and([CompiledFilter])
    case or([CompiledFilter])

    package func matches(_ document: Document) -> Bool {
        switch self {
        case .predicate(let predicate): predicate.matches(document)
        case .and(let filters): filters.allSatisfy { $0.matches(document) }
        case .or(let filters): filters.contains { $0.matches(document) }
        }
    }

    /// Every predicate in the tree.
    package var predicates: [QueryPredicate] {
        switch self {
        case .predicate(let predicate): [predicate]
        case .and(let filters), .or(let filters): filters.flatMap(\.predicates)
        }
    }
}
