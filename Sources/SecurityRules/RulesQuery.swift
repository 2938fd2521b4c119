public import DocumentModel

/// The query of a `list` request, as the rules judge it: its filters, order, limit and offset.
///
/// Rules are not filters: a query is allowed only if the rule holds for every document it
/// could return, which the evaluator decides from these constraints (see <doc:ListQueries>).
///
/// ```swift
/// let query = RulesQuery(
///     filter: .field(try FieldPath("owner"), .equal, "alice"),
///     orderBy: [.init(try FieldPath("createdAt"), .descending)], limit: 20)
/// ```
public struct RulesQuery: Sendable, Hashable {
    /// A filter: comparisons of fields with values, combined with AND and OR.
    public indirect enum Filter: Sendable, Hashable {
        /// `field op value`.
        case field(FieldPath, FieldOperator, Value)
        /// `field` is (not) null or NaN.
        case unary(FieldPath, UnaryOperator)
        /// All of the filters.
        case and([Filter])
        /// Any of the filters.
        case or([Filter])
    }

    /// The comparison of a field filter.
    public enum FieldOperator: String, Sendable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case greaterThanOrEqual = ">="
        case `in` = "in"
        case notIn = "not-in"
        case arrayContains = "array-contains"
        case arrayContainsAny = "array-contains-any"
    }

    /// The test of a unary filter.
    public enum UnaryOperator: String, Sendable, Hashable, CaseIterable {
        case isNull = "is-null"
        case isNaN = "is-nan"
        case isNotNull = "is-not-null"
        case isNotNaN = "is-not-nan"
    }

    /// A sort direction.
    public enum Direction: String, Sendable, Hashable {
        case ascending, descending
    }

    /// One `orderBy` clause.
    public struct Order: Sendable, Hashable {
        /// The field sorted on.
        public var field: FieldPath
        /// The direction.
        public var direction: Direction

        /// Creates an order clause.
        public init(_ field: FieldPath, _ direction: Direction = .ascending) {
            self.field = field
            self.direction = direction
        }
    }

    /// Whether the query is a collection group query (all collections with the id, at any depth).
    public var collectionGroup: Bool
    /// The filter, if any.
    public var filter: Filter?
    /// The order clauses, as `request.query.orderBy` reports them.
    public var orderBy: [Order]
    /// `request.query.limit`, `nil` without a limit.
    public var limit: Int64?
    /// `request.query.offset`.
    public var offset: Int64

    /// Creates a query.
    public init(
        collectionGroup: Bool = false, filter: Filter? = nil, orderBy: [Order] = [], limit: Int64? = nil,
        offset: Int64 = 0
    ) {
        self.collectionGroup = collectionGroup
        self.filter = filter
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
    }
}
