package import DocumentModel

/// A query's full order: Firestore's implicit orders, the comparison of documents, and the
/// cursor positions.
package struct QueryOrdering: Sendable {
    package let orders: [Order]

    /// The ordering of `orders` (a query's full order, `__name__` last).
    package init(orders: [Order]) { self.orders = orders }

    /// The explicit orders, then every inequality field not yet ordered (in field-path order),
    /// then the fields an aggregation sums or averages, then `__name__`; the implicit orders
    /// take the direction of the last explicit one (ascending without one). Measured on
    /// Google's emulator: an explicit order may come before the inequality fields, several
    /// inequality fields are allowed, no order may follow `__name__`, implicit ones included,
    /// and aggregated fields cannot be ordered when the name is (explicitly, by any filter on it,
    /// even an equality or one branch of an `OR`, or by the parent of a collection-group query,
    /// `keyConstrained`).
    package static func orders(
        explicit: [Order], predicates: [QueryPredicate], aggregated: [FieldPath] = [], keyConstrained: Bool = false
    ) throws -> [Order] {
        var seen = Set<FieldPath>()
        for (index, order) in explicit.enumerated() {
            try QueryValidator.validateFieldPath(order.field)
            guard seen.insert(order.field).inserted else {
                throw FirestoreError.invalidArgument("order by clause cannot contain duplicate fields \(order.field)")
            }
            if order.field.isDocumentName, index != explicit.count - 1 {
                throw FirestoreError.invalidArgument("order by clause cannot contain more fields after the key")
            }
        }
        let inequalities = Set(predicates.filter { $0.isInequality && !$0.isOnName }.map(\.field))
            .subtracting(seen).sorted()
        let direction = explicit.last?.direction ?? .ascending
        if seen.contains(.documentName), !inequalities.isEmpty {
            throw FirestoreError.invalidArgument("order by clause cannot contain more fields after the key")
        }
        let summed = Set(aggregated).subtracting(seen).subtracting(inequalities).sorted()
        let nameOrdered = seen.contains(.documentName) || keyConstrained || predicates.contains(where: \.isOnName)
        if nameOrdered, !summed.isEmpty {
            let names = summed.map { $0.segments.joined(separator: ".") }.joined(separator: ", ")
            throw FirestoreError.invalidArgument(
                "This query requires an index that has fields [\(names)] after __name__ and Firestore does not "
                    + "currently support such an index. Please try the query again with additional ordering on those fields.")
        }
        let implicit = (inequalities + summed).map { Order($0, direction) }
        return explicit + implicit + (seen.contains(.documentName) ? [] : [Order(.documentName, direction)])
    }

    /// The value a document has for an order's field (its name for `__name__`), `nil` if missing.
    package static func value(of document: Document, at field: FieldPath) -> Value? {
        field.isDocumentName ? .reference(document.name) : document.fields.value(at: field)
    }

    /// Whether the document has every ordered field (documents lacking one are not returned).
    package func hasOrderedFields(_ document: Document) -> Bool {
        orders.allSatisfy { $0.field.isDocumentName || document.fields.value(at: $0.field) != nil }
    }

    /// Compares two documents that have every ordered field.
    package func compare(_ lhs: Document, _ rhs: Document) -> Int {
        for order in orders {
            guard let left = QueryOrdering.value(of: lhs, at: order.field),
                let right = QueryOrdering.value(of: rhs, at: order.field)
            else { continue }
            let result = Value.compare(left, right)
            if result != 0 { return order.direction == .ascending ? result : -result }
        }
        return 0
    }

    /// Compares a document with a cursor's values (a prefix of the orders): negative if the
    /// document comes before the position, zero if it is at it.
    package func compare(_ document: Document, to cursor: QueryCursor) -> Int {
        for (value, order) in zip(cursor.values, orders) {
            guard let own = QueryOrdering.value(of: document, at: order.field) else { continue }
            let result = Value.compare(own, value)
            if result != 0 { return order.direction == .ascending ? result : -result }
        }
        return 0
    }

    /// Whether the document comes before a start cursor (`startAt` when `before`, else `startAfter`).
    package func precedesStart(_ document: Document, _ cursor: QueryCursor) -> Bool {
        let order = compare(document, to: cursor)
        return cursor.before ? order < 0 : order <= 0
    }

    /// Whether the document comes after an end cursor (`endBefore` when `before`, else `endAt`).
    package func followsEnd(_ document: Document, _ cursor: QueryCursor) -> Bool {
        let order = compare(document, to: cursor)
        return cursor.before ? order >= 0 : order > 0
    }
}
