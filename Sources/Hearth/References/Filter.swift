import DocumentModel

/// A query filter, for `whereFilter(_:)`; `orFilter` and `andFilter` combine filters.
///
/// ```swift
/// let filter = Filter.orFilter([
///     Filter.whereField("city", isEqualTo: "Paris"),
///     Filter.andFilter([Filter.whereField("age", isGreaterThan: 30), Filter.whereField("active", isEqualTo: true)]),
/// ])
/// let adults = db.collection("users").whereFilter(filter)
/// ```
public struct Filter: Sendable {
    /// The filter, or why its field or value is invalid (reported when the query runs).
    let built: Result<QueryFilter, FirestoreError>

    /// Documents whose `field` equals `value` (`nil` or `NSNull` matches null, `Double.nan` NaN).
    public static func whereField(_ field: String, isEqualTo value: Any) -> Filter { make(.dotted(field), .equal, value) }
    /// Documents whose `path` equals `value`.
    public static func whereField(_ path: FieldPath, isEqualTo value: Any) -> Filter { make(.path(path), .equal, value) }
    /// Documents whose `field` exists and differs from `value`.
    public static func whereField(_ field: String, isNotEqualTo value: Any) -> Filter {
        make(.dotted(field), .notEqual, value)
    }
    /// Documents whose `path` exists and differs from `value`.
    public static func whereField(_ path: FieldPath, isNotEqualTo value: Any) -> Filter {
        make(.path(path), .notEqual, value)
    }
    /// Documents whose `field` is less than `value` (of the same type).
    public static func whereField(_ field: String, isLessThan value: Any) -> Filter {
        make(.dotted(field), .lessThan, value)
    }
    /// Documents whose `path` is less than `value`.
    public static func whereField(_ path: FieldPath, isLessThan value: Any) -> Filter {
        make(.path(path), .lessThan, value)
    }
    /// Documents whose `field` is at most `value`.
    public static func whereField(_ field: String, isLessThanOrEqualTo value: Any) -> Filter {
        make(.dotted(field), .lessThanOrEqual, value)
    }
    /// Documents whose `path` is at most `value`.
    public static func whereField(_ path: FieldPath, isLessThanOrEqualTo value: Any) -> Filter {
        make(.path(path), .lessThanOrEqual, value)
    }
    /// Documents whose `field` is greater than `value`.
    public static func whereField(_ field: String, isGreaterThan value: Any) -> Filter {
        make(.dotted(field), .greaterThan, value)
    }
    /// Documents whose `path` is greater than `value`.
    public static func whereField(_ path: FieldPath, isGreaterThan value: Any) -> Filter {
        make(.path(path), .greaterThan, value)
    }
    /// Documents whose `field` is at least `value`.
    public static func whereField(_ field: String, isGreaterThanOrEqualTo value: Any) -> Filter {
        make(.dotted(field), .greaterThanOrEqual, value)
    }
    /// Documents whose `path` is at least `value`.
    public static func whereField(_ path: FieldPath, isGreaterThanOrEqualTo value: Any) -> Filter {
        make(.path(path), .greaterThanOrEqual, value)
    }
    /// Documents whose array `field` contains `value`.
    public static func whereField(_ field: String, arrayContains value: Any) -> Filter {
        make(.dotted(field), .arrayContains, value)
    }
    /// Documents whose array `path` contains `value`.
    public static func whereField(_ path: FieldPath, arrayContains value: Any) -> Filter {
        make(.path(path), .arrayContains, value)
    }
    /// Documents whose array `field` contains at least one of `values` (at most 30).
    public static func whereField(_ field: String, arrayContainsAny values: [Any]) -> Filter {
        make(.dotted(field), .arrayContainsAny, values)
    }
    /// Documents whose array `path` contains at least one of `values`.
    public static func whereField(_ path: FieldPath, arrayContainsAny values: [Any]) -> Filter {
        make(.path(path), .arrayContainsAny, values)
    }
    /// Documents whose `field` equals one of `values` (at most 30).
    public static func whereField(_ field: String, in values: [Any]) -> Filter { make(.dotted(field), .in, values) }
    /// Documents whose `path` equals one of `values`.
    public static func whereField(_ path: FieldPath, in values: [Any]) -> Filter { make(.path(path), .in, values) }
    /// Documents whose `field` exists and equals none of `values` (at most 10).
    public static func whereField(_ field: String, notIn values: [Any]) -> Filter {
        make(.dotted(field), .notIn, values)
    }
    /// Documents whose `path` exists and equals none of `values`.
    public static func whereField(_ path: FieldPath, notIn values: [Any]) -> Filter {
        make(.path(path), .notIn, values)
    }

    /// Documents matching any of `filters`.
    public static func orFilter(_ filters: [Filter]) -> Filter { composite(.or, filters) }

    /// Documents matching all of `filters`.
    public static func andFilter(_ filters: [Filter]) -> Filter { composite(.and, filters) }

    private static func make(_ field: FieldInput, _ op: QueryFilter.FieldOperator, _ value: Any) -> Filter {
        Filter(built: Result {
            let path = try field.modelPath()
            let converted = try ValueConverter.value(from: value, at: path.description, in: nil)
            switch (op, converted) {
            case (.equal, .null): return .unary(path, .isNull)
            case (.notEqual, .null): return .unary(path, .isNotNull)
            case (.equal, _) where converted.isNaN: return .unary(path, .isNaN)
            case (.notEqual, _) where converted.isNaN: return .unary(path, .isNotNaN)
            default: return .field(path, op, converted)
            }
        }.mapError(FirestoreError.wrapping))
    }

    private static func composite(_ op: QueryFilter.CompositeOperator, _ filters: [Filter]) -> Filter {
        Filter(built: Result { .composite(op, try filters.map { try $0.built.get() }) }.mapError(FirestoreError.wrapping))
    }
}
