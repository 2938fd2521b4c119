import DocumentModel
import DocumentStore

/// Shorthands for the query tests: filters, orders and queries of the fixture's database.
extension StoreFixture {
    /// Sets documents (path → fields) in one commit.
    func put(_ documents: KeyValuePairs<String, MapValue>) throws {
        try store.commit(try documents.map { .set(try name($0.key), fields: $0.value) })
    }

    /// A query of `collection` (a collection group with `group`) under `parent`.
    func query(
        _ collection: String, parent: String = "", group: Bool = false, filter: QueryFilter? = nil,
        orderBy: [Order] = [], startAt: QueryCursor? = nil, endAt: QueryCursor? = nil, offset: Int = 0,
        limit: Int? = nil, select: [FieldPath]? = nil
    ) throws -> Query {
        Query(
            database: database, parent: try ResourcePath(parent),
            structured: StructuredQuery(
                select: select, from: CollectionSelector(collectionID: collection, allDescendants: group),
                filter: filter, orderBy: orderBy, startAt: startAt, endAt: endAt, offset: offset, limit: limit))
    }

    /// The ids of a query's results, in order.
    func ids(_ query: Query) throws -> [String] {
        try store.runQuery(query).documents.map(\.name.documentID)
    }

    /// The paths of a query's results, in order.
    func paths(_ query: Query) throws -> [String] {
        try store.runQuery(query).documents.map(\.name.path.description)
    }

    /// A reference to a document of the fixture's database.
    func reference(_ path: String) throws -> Value {
        .reference(try name(path))
    }

    /// The error a query fails with.
    func error(_ query: Query) -> FirestoreError? {
        do {
            _ = try store.runQuery(query)
            return nil
        } catch let error as FirestoreError {
            return error
        } catch {
            return FirestoreError(.unknown, "\(error)")
        }
    }
}

/// `field op value`.
func filter(_ field: String, _ op: QueryFilter.FieldOperator, _ value: Value) throws -> QueryFilter {
    .field(try FieldPath(field), op, value)
}

/// A unary filter.
func filter(_ field: String, _ op: QueryFilter.UnaryOperator) throws -> QueryFilter {
    .unary(try FieldPath(field), op)
}

func and(_ filters: QueryFilter...) -> QueryFilter { .composite(.and, filters) }

func or(_ filters: QueryFilter...) -> QueryFilter { .composite(.or, filters) }

func asc(_ field: String) throws -> Order { Order(try FieldPath(field), .ascending) }

func desc(_ field: String) throws -> Order { Order(try FieldPath(field), .descending) }
