package import DocumentModel

/// Checks a query against Firestore's rules and prepares it for planning: compiles the
/// filter, adds the implicit orders, checks cursors. Messages and codes are Google's
/// emulator's, measured against it (see `Docs/Compatibility.md`); all are `.invalidArgument`.
package enum QueryValidator {
    /// The most values in an `in` or `array-contains-any` list.
    package static let maxInValues = 30
    /// The most values in a `not-in` list.
    package static let maxNotInValues = 10

    /// Validates `query`; `aggregated` are the fields an aggregation sums or averages, which
    /// Google's emulator orders by (documents lacking one do not count, not even for a count in
    /// the same request).
    package static func prepare(_ query: Query, aggregated: [FieldPath] = []) throws -> PreparedQuery {
        let structured = query.structured
        guard structured.limit.map({ $0 >= 0 }) ?? true else { throw FirestoreError.invalidArgument("limit is negative") }
        guard structured.offset >= 0 else { throw FirestoreError.invalidArgument("offset is negative") }
        let scope = try validatedScope(query)
        for path in structured.select ?? [] { try validateFieldPath(path) }
        if let select = structured.select, !aggregated.isEmpty {
            // Measured on Google's emulator: sum and avg refuse any projection.
            if let missing = aggregated.first(where: { !select.contains($0) }) {
                throw FirestoreError.invalidArgument(
                    "The aggregation property \(missing) is not present in the base query's property mask.")
            }
            throw FirestoreError.invalidArgument("Cannot apply property masks when aggregation fields are present.")
        }
        let filter = try structured.filter.map { try compile($0, database: query.database) }
        let conjunctions = try filter.map(FilterNormalForm.conjunctions) ?? [[]]
        let predicates = filter?.predicates ?? []
        try validateKeyEquality(predicates)
        let groupBelowRoot = scope.allDescendants && !scope.parent.segments.isEmpty
        let orders = try QueryOrdering.orders(
            explicit: structured.orderBy, predicates: predicates, aggregated: aggregated, keyConstrained: groupBelowRoot)
        if scope.collectionID.isEmpty {
            try validateKindless(filter: filter, orders: orders)
        } else if groupBelowRoot, predicates.contains(where: { !$0.isOnName }) || orders.contains(where: { !$0.field.isDocumentName }) {
            // Measured: below the root, a collection-group query may only filter and order on the name.
            throw FirestoreError.invalidArgument("collection group queries are only allowed at the root parent")
        }
        for cursor in [structured.startAt, structured.endAt].compactMap({ $0 }) {
            try validate(cursor, orders: orders, explicitCount: structured.orderBy.count, database: query.database)
        }
        return PreparedQuery(
            scope: scope, filter: filter, conjunctions: conjunctions, orders: orders, startAt: structured.startAt,
            endAt: structured.endAt, offset: structured.offset, limit: structured.limit,
            projection: structured.select,
            nearest: try structured.findNearest.map { try NearestNeighbors(validating: $0, in: structured) })
    }

    /// The parent must be the root or a document; the collection id a valid id (or empty).
    package static func validatedScope(_ query: Query) throws -> QueryScope {
        let parent = query.parent
        guard parent.segments.isEmpty || parent.isDocument else {
            let name = "\(query.database.resourceName)/documents/\(parent)"
            throw FirestoreError.invalidArgument("Document parent name \"\(name)\" lacks \"/\" at index \(name.utf16.count).")
        }
        let id = query.structured.from.collectionID
        if id.utf8.contains(UInt8(ascii: "/")) {
            throw FirestoreError.invalidArgument("Collection id \"\(id)\" is invalid because it contains \"/\".")
        }
        if !id.isEmpty { try ResourcePath.validate(id: id, in: parent.segments + [id]) }
        return QueryScope(
            database: query.database, parent: parent, collectionID: id,
            allDescendants: query.structured.from.allDescendants)
    }

    /// Field paths of filters, orders, projections and aggregations: at most 20 names, at most
    /// 1,499 bytes, no reserved names (`__name__` only as the whole path).
    package static func validateFieldPath(_ path: FieldPath) throws {
        guard path.segments.count <= 20 else {
            throw FirestoreError.invalidArgument("paths must have at most 20 elements")
        }
        let length = path.segments.reduce(path.segments.count - 1) { $0 + $1.utf8.count }
        guard length <= 1499 else { throw FirestoreError.invalidArgument("property path is longer than 1500 bytes.") }
        for segment in path.segments where ResourcePath.isReserved(segment) {
            if segment == "__name__" {
                guard path.segments.count == 1 else { throw FirestoreError.invalidArgument("the name __key__ is reserved") }
                continue
            }
            throw FirestoreError.invalidArgument("Invalid reserved name in field path \(segment)")
        }
    }

    private static func compile(_ filter: QueryFilter, database: DatabaseID) throws -> CompiledFilter {
        switch filter {
        case .composite(let op, let filters):
            if op == .or, filters.isEmpty {
                throw FirestoreError.invalidArgument("Composite filter must have at least one sub-filter.")
            }
            let compiled = try filters.map { try compile($0, database: database) }
            return op == .and ? .and(compiled) : .or(compiled)
        case .unary(let field, let op):
            try validateFieldPath(field)
            if field.isDocumentName { throw FirestoreError.invalidArgument("__key__ filter value must be a Key") }
            return .predicate(QueryPredicate(field: field, test: .unary(op)))
        case .field(let field, let op, let value):
            try validateFieldPath(field)
            try validateOperand(op, value)
            try VectorValidator.validateOperand(value)
            if field.isDocumentName { try validateNameOperand(op, value, database: database) }
            return .predicate(QueryPredicate(field: field, test: .field(op, value)))
        }
    }

    private static func validateOperand(_ op: QueryFilter.FieldOperator, _ value: Value) throws {
        let limit: Int
        switch op {
        case .in, .arrayContainsAny: limit = maxInValues
        case .notIn: limit = maxNotInValues
        default: return
        }
        guard let list = value.arrayValue else {
            throw FirestoreError.invalidArgument("'\(op.rawValue)' requires an ArrayValue.")
        }
        guard !list.isEmpty else { throw FirestoreError.invalidArgument("'\(op.rawValue)' requires an non-empty ArrayValue.") }
        guard list.count <= limit else {
            throw FirestoreError.invalidArgument("'\(op.rawValue)' supports up to \(limit) comparison values.")
        }
    }

    /// Filters on `__name__` compare document references of the query's database.
    private static func validateNameOperand(_ op: QueryFilter.FieldOperator, _ value: Value, database: DatabaseID) throws {
        if op == .arrayContains || op == .arrayContainsAny {
            throw FirestoreError.invalidArgument("the name __key__ is reserved")
        }
        let references = op == .in || op == .notIn ? value.arrayValue ?? [] : [value]
        for reference in references {
            guard case .reference(let name) = reference else {
                throw FirestoreError.invalidArgument("__key__ filter value must be a Key")
            }
            guard name.databaseID == database else {
                throw FirestoreError.invalidArgument(
                    "The request was for database '\(database.resourceName)' but was attempting to access database "
                        + "'\(name.databaseID.resourceName)'")
            }
        }
    }

    /// An equality on the name (`==`, `in`) cannot be combined with an inequality on another field
    /// unless the name has an inequality too (measured on Google's emulator).
    private static func validateKeyEquality(_ predicates: [QueryPredicate]) throws {
        let keyEquality = predicates.contains { predicate in
            predicate.isOnName && [.equal, .in].contains(predicate.test.fieldOperator)
        }
        guard keyEquality, predicates.contains(where: { !$0.isOnName && $0.isInequality }),
            !predicates.contains(where: { $0.isOnName && $0.isInequality })
        else { return }
        throw FirestoreError.invalidArgument(
            "Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities.")
    }

    /// A query of every collection (empty collection id) may only filter and order on the name.
    private static func validateKindless(filter: CompiledFilter?, orders: [Order]) throws {
        if let field = filter?.predicates.first(where: { !$0.isOnName })?.field {
            throw FirestoreError.invalidArgument("kind is required for filter: \(field)")
        }
        if orders.contains(where: { !$0.field.isDocumentName || $0.direction == .descending }) {
            throw FirestoreError.invalidArgument("kind is required for all orders except __key__ ascending")
        }
    }

    /// A cursor has at most one value per explicit order; a `__name__` value is a reference in
    /// the query's database.
    private static func validate(
        _ cursor: QueryCursor, orders: [Order], explicitCount: Int, database: DatabaseID
    ) throws {
        guard cursor.values.count <= explicitCount else { throw FirestoreError.invalidArgument("Cursor has too many values.") }
        for value in cursor.values { try VectorValidator.validateOperand(value) }
        for (value, order) in zip(cursor.values, orders) where order.field.isDocumentName {
            guard case .reference(let name) = value else {
                throw FirestoreError.invalidArgument("Cursor __key__ value is not a document reference.")
            }
            guard name.databaseID == database else {
                throw FirestoreError.invalidArgument("The cursor key is in a different database than the query")
            }
        }
    }
}
