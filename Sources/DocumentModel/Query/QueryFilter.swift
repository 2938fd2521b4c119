/// A query's filter: a comparison of a field with a value, a unary test of a field, or a
/// composite of filters.
public indirect enum QueryFilter: Sendable, Hashable {
    /// The comparison operators of Firestore's `FieldFilter`.
    public enum FieldOperator: String, Sendable, Hashable, CaseIterable {
        case lessThan = "LESS_THAN"
        case lessThanOrEqual = "LESS_THAN_OR_EQUAL"
        case greaterThan = "GREATER_THAN"
        case greaterThanOrEqual = "GREATER_THAN_OR_EQUAL"
        case equal = "EQUAL"
        case notEqual = "NOT_EQUAL"
        case arrayContains = "ARRAY_CONTAINS"
        case `in` = "IN"
        case arrayContainsAny = "ARRAY_CONTAINS_ANY"
        case notIn = "NOT_IN"
    }

    /// The tests of Firestore's `UnaryFilter`.
    public enum UnaryOperator: String, Sendable, Hashable, CaseIterable {
        case isNaN = "IS_NAN"
        case isNull = "IS_NULL"
        case isNotNaN = "IS_NOT_NAN"
        case isNotNull = "IS_NOT_NULL"
    }

    /// How a composite filter combines its filters.
    public enum CompositeOperator: String, Sendable, Hashable {
        case and = "AND"
        case or = "OR"
    }

    /// `field op value`.
    case field(FieldPath, FieldOperator, Value)
    /// A unary test of a field.
    case unary(FieldPath, UnaryOperator)
    /// All (`and`) or any (`or`) of the filters.
    case composite(CompositeOperator, [QueryFilter])
}
