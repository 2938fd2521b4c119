package import DocumentModel

/// One test of one field (or of the document name) from a query's filter, as the set of
/// values it accepts (`ValueRanges`) in the field's value or array-element index entries.
///
/// The sets encode Firestore's semantics as Google's emulator measures them
/// (`Docs/Compatibility.md`):
/// - a document whose field is missing never matches;
/// - range filters (`<`, `<=`, `>`, `>=`) match only values of the operand's type, and never
///   NaN; with a null or NaN operand they match nothing;
/// - `==` null and `==` NaN match nothing (clients send `IS_NULL` and `IS_NAN` instead);
/// - `!=` and `not-in` never match null; `!=` null and a `not-in` list holding null match
///   nothing; `!=` NaN matches every non-null value, NaN included, and NaN in a `not-in` list
///   is ignored;
/// - null and NaN in `in` and `array-contains-any` lists are ignored, and `array-contains` of
///   null or NaN matches nothing;
/// - `IS_NOT_NAN` matches neither NaN nor null; `IS_NOT_NULL` matches NaN.
package struct QueryPredicate: Sendable {
    /// What is tested.
    package enum Test: Sendable, Hashable {
        case field(QueryFilter.FieldOperator, Value)
        case unary(QueryFilter.UnaryOperator)
    }

    /// The field tested (`__name__` for the document name).
    package let field: FieldPath
    package let test: Test
    /// Which index entries of the field hold the tested values: `.value` or `.element`.
    package let kind: IndexKind
    /// The accepted values (of the field, or of one of its array elements for `.element`).
    package let ranges: ValueRanges

    package init(field: FieldPath, test: Test) {
        self.field = field
        self.test = test
        switch test {
        case .field(let op, let operand):
            kind = op == .arrayContains || op == .arrayContainsAny ? .element : .value
            ranges = QueryPredicate.ranges(op, operand)
        case .unary(let op):
            kind = .value
            ranges = QueryPredicate.ranges(op)
        }
    }

    /// Whether the predicate orders results implicitly (an inequality: Firestore adds an order
    /// on its field): `<`, `<=`, `>`, `>=`, `!=`, `not-in`, `IS_NOT_NULL` and `IS_NOT_NAN`.
    /// Measured on Google's emulator: one that can match nothing for its null or NaN operand
    /// (`<= null`, `!= null`, ...) is a false filter there and adds no order.
    package var isInequality: Bool {
        if ranges.isEmpty { return false }
        return switch test {
        case .field(let op, _):
            [.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notEqual, .notIn].contains(op)
        case .unary(let op): op == .isNotNull || op == .isNotNaN
        }
    }

    /// Whether the predicate tests the document name.
    package var isOnName: Bool { field.isDocumentName }

    /// Whether `document` passes.
    package func matches(_ document: Document) -> Bool {
        guard let value = isOnName ? .reference(document.name) : document.fields.value(at: field) else { return false }
        return matches(value)
    }

    /// Whether a field value passes.
    package func matches(_ value: Value) -> Bool {
        switch kind {
        case .element:
            guard case .array(let elements) = value else { return false }
            return elements.contains { ranges.contains(OrderedKey.encoding(of: $0)) }
        case .value:
            return ranges.contains(OrderedKey.encoding(of: value))
        }
    }

    private static func usable(_ value: Value) -> Bool { value != .null && !value.isNaN }

    private static func ranges(_ op: QueryFilter.FieldOperator, _ operand: Value) -> ValueRanges {
        let list = operand.arrayValue ?? []
        switch op {
        case .equal, .arrayContains:
            return usable(operand) ? .points([operand]) : .empty
        case .in, .arrayContainsAny:
            return .points(list.filter(usable))
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard usable(operand) else { return .empty }
            let encoding = OrderedKey.encoding(of: operand)
            let after = OrderedKey.successor(ofPrefix: encoding)
            let bound: ValueRanges =
                switch op {
                case .lessThan: .between([], encoding)
                case .lessThanOrEqual: .between([], after)
                case .greaterThan: .between(after ?? encoding, nil)
                default: .between(encoding, nil)
                }
            return ValueTypeRanges.sameType(as: operand).intersection(bound)
        case .notEqual:
            if operand == .null { return .empty }
            if operand.isNaN { return ValueTypeRanges.nonNull }
            return ValueTypeRanges.nonNull.subtracting(.points([operand]))
        case .notIn:
            if list.contains(.null) { return .empty }
            return ValueTypeRanges.nonNull.subtracting(.points(list.filter(usable)))
        }
    }

    private static func ranges(_ op: QueryFilter.UnaryOperator) -> ValueRanges {
        switch op {
        case .isNull: ValueTypeRanges.null
        case .isNaN: ValueTypeRanges.nan
        case .isNotNull: ValueTypeRanges.nonNull
        case .isNotNaN: ValueTypeRanges.nonNull.subtracting(ValueTypeRanges.nan)
        }
    }
}
