import DocumentModel

/// The orders Firestore applies to a query: the explicit ones, else the fields of inequality
/// filters (in field order), then the document name in the direction of the last order.
enum ImpliedOrders {
    static func orders(explicit: [Order], filters: [QueryFilter]) -> [Order] {
        var orders = explicit
        if orders.isEmpty {
            orders = Set(filters.flatMap(inequalityFields)).sorted().map { Order($0) }
        }
        if !orders.contains(where: { $0.field.isDocumentName }) {
            orders.append(Order(.documentName, orders.last?.direction ?? .ascending))
        }
        return orders
    }

    /// Whether `lhs` comes before `rhs` in `orders`.
    static func precedes(_ lhs: Document, _ rhs: Document, orders: [Order]) -> Bool {
        for order in orders {
            let comparison: Int
            if order.field.isDocumentName {
                comparison = lhs.name == rhs.name ? 0 : (lhs.name < rhs.name ? -1 : 1)
            } else {
                comparison = Value.compare(
                    lhs.fields.value(at: order.field) ?? .null, rhs.fields.value(at: order.field) ?? .null)
            }
            if comparison != 0 { return order.direction == .ascending ? comparison < 0 : comparison > 0 }
        }
        return false
    }

    /// The fields a filter compares with an inequality.
    private static func inequalityFields(_ filter: QueryFilter) -> [DocumentModel.FieldPath] {
        switch filter {
        case .field(let path, let op, _):
            switch op {
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notEqual, .notIn: [path]
            default: []
            }
        case .unary(let path, let op): op == .isNotNaN || op == .isNotNull ? [path] : []
        case .composite(_, let filters): filters.flatMap(inequalityFields)
        }
    }
}
