import DocumentModel

/// A query over one collection, or over every collection with one id (`collectionGroup`),
/// built by chaining; running it reads the matching documents in order.
///
/// ```swift
/// let snapshot = try await db.collection("users")
///     .whereField("age", isGreaterThanOrEqualTo: 18)
///     .order(by: "age", descending: true)
///     .limit(to: 10)
///     .getDocuments()
/// for document in snapshot.documents { print(document.documentID, document.data()) }
/// ```
///
/// A query is immutable; each method returns a new one. Invalid fields or values are reported
/// (as `FirestoreError.invalidArgument`) when the query runs.
public class Query: @unchecked Sendable {
    /// The database the query reads.
    public let firestore: Firestore
    let state: QueryState

    init(firestore: Firestore, state: QueryState) {
        self.firestore = firestore
        self.state = state
    }

    convenience init(firestore: Firestore, parent: String, collectionID: String, allDescendants: Bool) {
        self.init(
            firestore: firestore,
            state: QueryState(parent: parent, collectionID: collectionID, allDescendants: allDescendants))
    }

    /// A copy with `change` applied to the state.
    func with(_ change: (inout QueryState) throws -> Void) -> Query {
        var next = state
        do {
            try change(&next)
        } catch {
            if next.error == nil { next.error = .wrapping(error) }
        }
        return Query(firestore: firestore, state: next)
    }

    // MARK: Filters

    /// Keeps the documents matching `filter`.
    public func whereFilter(_ filter: Filter) -> Query {
        with { $0.filters.append(try filter.built.get()) }
    }

    /// Keeps documents whose `field` equals `value`.
    public func whereField(_ field: String, isEqualTo value: Any) -> Query {
        whereFilter(.whereField(field, isEqualTo: value))
    }
    /// Keeps documents whose `path` equals `value`.
    public func whereField(_ path: FieldPath, isEqualTo value: Any) -> Query {
        whereFilter(.whereField(path, isEqualTo: value))
    }
    /// Keeps documents whose `field` exists and differs from `value`.
    public func whereField(_ field: String, isNotEqualTo value: Any) -> Query {
        whereFilter(.whereField(field, isNotEqualTo: value))
    }
    /// Keeps documents whose `path` exists and differs from `value`.
    public func whereField(_ path: FieldPath, isNotEqualTo value: Any) -> Query {
        whereFilter(.whereField(path, isNotEqualTo: value))
    }
    /// Keeps documents whose `field` is less than `value`.
    public func whereField(_ field: String, isLessThan value: Any) -> Query {
        whereFilter(.whereField(field, isLessThan: value))
    }
    /// Keeps documents whose `path` is less than `value`.
    public func whereField(_ path: FieldPath, isLessThan value: Any) -> Query {
        whereFilter(.whereField(path, isLessThan: value))
    }
    /// Keeps documents whose `field` is at most `value`.
    public func whereField(_ field: String, isLessThanOrEqualTo value: Any) -> Query {
        whereFilter(.whereField(field, isLessThanOrEqualTo: value))
    }
    /// Keeps documents whose `path` is at most `value`.
    public func whereField(_ path: FieldPath, isLessThanOrEqualTo value: Any) -> Query {
        whereFilter(.whereField(path, isLessThanOrEqualTo: value))
    }
    /// Keeps documents whose `field` is greater than `value`.
    public func whereField(_ field: String, isGreaterThan value: Any) -> Query {
        whereFilter(.whereField(field, isGreaterThan: value))
    }
    /// Keeps documents whose `path` is greater than `value`.
    public func whereField(_ path: FieldPath, isGreaterThan value: Any) -> Query {
        whereFilter(.whereField(path, isGreaterThan: value))
    }
    /// Keeps documents whose `field` is at least `value`.
    public func whereField(_ field: String, isGreaterThanOrEqualTo value: Any) -> Query {
        whereFilter(.whereField(field, isGreaterThanOrEqualTo: value))
    }
    /// Keeps documents whose `path` is at least `value`.
    public func whereField(_ path: FieldPath, isGreaterThanOrEqualTo value: Any) -> Query {
        whereFilter(.whereField(path, isGreaterThanOrEqualTo: value))
    }
    /// Keeps documents whose array `field` contains `value`.
    public func whereField(_ field: String, arrayContains value: Any) -> Query {
        whereFilter(.whereField(field, arrayContains: value))
    }
    /// Keeps documents whose array `path` contains `value`.
    public func whereField(_ path: FieldPath, arrayContains value: Any) -> Query {
        whereFilter(.whereField(path, arrayContains: value))
    }
    /// Keeps documents whose array `field` contains one of `values`.
    public func whereField(_ field: String, arrayContainsAny values: [Any]) -> Query {
        whereFilter(.whereField(field, arrayContainsAny: values))
    }
    /// Keeps documents whose array `path` contains one of `values`.
    public func whereField(_ path: FieldPath, arrayContainsAny values: [Any]) -> Query {
        whereFilter(.whereField(path, arrayContainsAny: values))
    }
    /// Keeps documents whose `field` equals one of `values`.
    public func whereField(_ field: String, in values: [Any]) -> Query {
        whereFilter(.whereField(field, in: values))
    }
    /// Keeps documents whose `path` equals one of `values`.
    public func whereField(_ path: FieldPath, in values: [Any]) -> Query {
        whereFilter(.whereField(path, in: values))
    }
    /// Keeps documents whose `field` exists and equals none of `values`.
    public func whereField(_ field: String, notIn values: [Any]) -> Query {
        whereFilter(.whereField(field, notIn: values))
    }
    /// Keeps documents whose `path` exists and equals none of `values`.
    public func whereField(_ path: FieldPath, notIn values: [Any]) -> Query {
        whereFilter(.whereField(path, notIn: values))
    }

    // MARK: Order and limits

    /// Orders by `field`, ascending.
    public func order(by field: String) -> Query { order(by: field, descending: false) }

    /// Orders by `field`, then by the orders before it.
    public func order(by field: String, descending: Bool) -> Query {
        with { $0.orders.append(Order(try FieldPath.parsingDots(field), descending ? .descending : .ascending)) }
    }

    /// Orders by `path`, ascending.
    public func order(by path: FieldPath) -> Query { order(by: path, descending: false) }

    /// Orders by `path`.
    public func order(by path: FieldPath, descending: Bool) -> Query {
        with { $0.orders.append(Order(try path.modelPath(), descending ? .descending : .ascending)) }
    }

    /// Returns at most the first `limit` documents.
    public func limit(to limit: Int) -> Query {
        with {
            guard limit > 0 else { throw FirestoreError.invalidArgument("Invalid Query. Query limit (\(limit)) is invalid. Limit must be positive.") }
            $0.limit = limit
            $0.limitToLast = false
        }
    }

    /// Returns at most the last `limit` documents (in the query's order); needs an `order(by:)`.
    public func limit(toLast limit: Int) -> Query {
        with {
            guard limit > 0 else { throw FirestoreError.invalidArgument("Invalid Query. Query limit (\(limit)) is invalid. Limit must be positive.") }
            $0.limit = limit
            $0.limitToLast = true
        }
    }

    // MARK: Cursors

    /// Starts at the position of `fieldValues` (one per order, in order), included.
    public func start(at fieldValues: [Any]) -> Query { cursor(fieldValues, start: true, before: true) }
    /// Starts just after the position of `fieldValues`.
    public func start(after fieldValues: [Any]) -> Query { cursor(fieldValues, start: true, before: false) }
    /// Ends at the position of `fieldValues`, included.
    public func end(at fieldValues: [Any]) -> Query { cursor(fieldValues, start: false, before: false) }
    /// Ends just before the position of `fieldValues`.
    public func end(before fieldValues: [Any]) -> Query { cursor(fieldValues, start: false, before: true) }

    /// Starts at `document`, included.
    public func start(atDocument document: DocumentSnapshot) -> Query { cursor(document, start: true, before: true) }
    /// Starts just after `document`.
    public func start(afterDocument document: DocumentSnapshot) -> Query {
        cursor(document, start: true, before: false)
    }
    /// Ends at `document`, included.
    public func end(atDocument document: DocumentSnapshot) -> Query { cursor(document, start: false, before: false) }
    /// Ends just before `document`.
    public func end(beforeDocument document: DocumentSnapshot) -> Query {
        cursor(document, start: false, before: true)
    }

    private func cursor(_ fieldValues: [Any], start: Bool, before: Bool) -> Query {
        with { state in
            let values = try fieldValues.map { try ValueConverter.value(from: $0, at: "cursor", in: nil) }
            state.setCursor(QueryCursor(values: values, before: before), start: start)
        }
    }

    private func cursor(_ document: DocumentSnapshot, start: Bool, before: Bool) -> Query {
        with { state in
            guard let fields = document.document?.fields else {
                throw FirestoreError.invalidArgument(
                    "Invalid query. You are trying to start or end a query using a document that doesn't exist.")
            }
            let values = try state.effectiveOrders(in: firestore.database).map { order -> Value in
                if order.field.isDocumentName { return .reference(try document.reference.resolvedName()) }
                guard let value = fields.value(at: order.field) else {
                    throw FirestoreError.invalidArgument(
                        "Invalid query. You are trying to start or end a query using a document for which the field "
                            + "'\(order.field)' (used as the orderBy) does not exist.")
                }
                return value
            }
            state.setCursor(QueryCursor(values: values, before: before), start: start)
        }
    }
}
