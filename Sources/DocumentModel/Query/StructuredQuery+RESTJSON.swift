/// Reading queries from Firestore's proto3 JSON form (the REST API's `runQuery` and
/// `runAggregationQuery` bodies). Both the JSON names (`orderBy`) and the proto field names
/// (`order_by`) are accepted. Errors are `.invalidArgument` and name the offending member.
extension StructuredQuery {
    /// Decodes a `StructuredQuery` object.
    public init(restJSON json: JSONValue) throws {
        let object = try QueryJSON(json, at: "structuredQuery")
        try object.allowOnly([
            "select", "from", "where", "orderBy", "order_by", "startAt", "start_at", "endAt", "end_at", "offset", "limit",
            "findNearest", "find_nearest",
        ])
        if let select = object["select"] {
            let fields = try QueryJSON(select, at: "select")
            try fields.allowOnly(["fields"])
            let list = try fields.array("fields") ?? []
            self.select = try list.enumerated().map { try QueryJSON.fieldReference($1, at: "select.fields[\($0)]") }
        } else {
            self.select = nil
        }
        let selectors = try object.array("from") ?? []
        guard selectors.count == 1 else {
            throw FirestoreError.invalidArgument("A query must have exactly one collection selector in 'from'")
        }
        let selector = try QueryJSON(selectors[0], at: "from[0]")
        try selector.allowOnly(["collectionId", "collection_id", "allDescendants", "all_descendants"])
        from = CollectionSelector(
            collectionID: try selector.string("collectionId", "collection_id") ?? "",
            allDescendants: try selector.bool("allDescendants", "all_descendants") ?? false)
        filter = try object["where"].map { try QueryFilter(restJSON: $0, at: "where") }
        orderBy = try (object.array("orderBy", "order_by") ?? []).enumerated().map { index, element in
            let order = try QueryJSON(element, at: "orderBy[\(index)]")
            try order.allowOnly(["field", "direction"])
            guard let field = order["field"] else { throw FirestoreError.invalidArgument("orderBy[\(index)] has no field") }
            let direction: Order.Direction =
                switch try order.string("direction") {
                case nil, "ASCENDING", "DIRECTION_UNSPECIFIED": .ascending
                case "DESCENDING": .descending
                case let other?: throw FirestoreError.invalidArgument("orderBy[\(index)].direction '\(other)' is invalid")
                }
            return Order(try QueryJSON.fieldReference(field, at: "orderBy[\(index)].field"), direction)
        }
        startAt = try object["startAt", "start_at"].map { try QueryCursor(restJSON: $0, at: "startAt") }
        endAt = try object["endAt", "end_at"].map { try QueryCursor(restJSON: $0, at: "endAt") }
        offset = try object.integer("offset").map(Int.init) ?? 0
        limit = try object["limit"].map { limit in
            if case .object = limit { return Int(try QueryJSON(limit, at: "limit").integer("value") ?? 0) }
            return Int(try QueryJSON.integer(limit, at: "limit"))
        }
        findNearest = try object["findNearest", "find_nearest"].map { try FindNearest(restJSON: $0, at: "findNearest") }
    }
}

extension QueryFilter {
    /// Decodes a `Filter` object (`fieldFilter`, `unaryFilter` or `compositeFilter`).
    public init(restJSON json: JSONValue, at path: String) throws {
        let object = try QueryJSON(json, at: path)
        try object.allowOnly([
            "fieldFilter", "field_filter", "unaryFilter", "unary_filter", "compositeFilter", "composite_filter",
        ])
        if let fieldFilter = object["fieldFilter", "field_filter"] {
            let filter = try QueryJSON(fieldFilter, at: "\(path).fieldFilter")
            try filter.allowOnly(["field", "op", "value"])
            guard let field = filter["field"], let value = filter["value"] else {
                throw FirestoreError.invalidArgument("\(path).fieldFilter needs a field and a value")
            }
            let name = try filter.string("op") ?? ""
            guard let op = FieldOperator(rawValue: name) else {
                throw FirestoreError.invalidArgument("\(path).fieldFilter.op '\(name)' is not a field filter operator")
            }
            self = .field(
                try QueryJSON.fieldReference(field, at: "\(path).fieldFilter.field"), op, try RESTJSON.decodeValue(value))
        } else if let unaryFilter = object["unaryFilter", "unary_filter"] {
            let filter = try QueryJSON(unaryFilter, at: "\(path).unaryFilter")
            try filter.allowOnly(["field", "op"])
            guard let field = filter["field"] else {
                throw FirestoreError.invalidArgument("\(path).unaryFilter needs a field")
            }
            let name = try filter.string("op") ?? ""
            guard let op = UnaryOperator(rawValue: name) else {
                throw FirestoreError.invalidArgument("\(path).unaryFilter.op '\(name)' is not a unary filter operator")
            }
            self = .unary(try QueryJSON.fieldReference(field, at: "\(path).unaryFilter.field"), op)
        } else if let compositeFilter = object["compositeFilter", "composite_filter"] {
            let filter = try QueryJSON(compositeFilter, at: "\(path).compositeFilter")
            try filter.allowOnly(["op", "filters"])
            let name = try filter.string("op") ?? ""
            guard let op = CompositeOperator(rawValue: name) else {
                throw FirestoreError.invalidArgument("\(path).compositeFilter.op '\(name)' is not AND or OR")
            }
            let filters = try (filter.array("filters") ?? []).enumerated().map {
                try QueryFilter(restJSON: $1, at: "\(path).compositeFilter.filters[\($0)]")
            }
            self = .composite(op, filters)
        } else {
            throw FirestoreError.invalidArgument("\(path) is an empty filter")
        }
    }
}

extension QueryCursor {
    /// Decodes a `Cursor` object.
    public init(restJSON json: JSONValue, at path: String) throws {
        let object = try QueryJSON(json, at: path)
        try object.allowOnly(["values", "before"])
        values = try (object.array("values") ?? []).map(RESTJSON.decodeValue)
        before = try object.bool("before") ?? false
    }
}

extension AggregationQuery {
    /// Decodes a `StructuredAggregationQuery` object (`structuredQuery` and `aggregations`) for
    /// a query of `database` under `parent`.
    public init(restJSON json: JSONValue, database: DatabaseID, parent: ResourcePath) throws {
        let object = try QueryJSON(json, at: "structuredAggregationQuery")
        try object.allowOnly(["structuredQuery", "structured_query", "aggregations"])
        guard let structured = object["structuredQuery", "structured_query"] else {
            throw FirestoreError.invalidArgument("structuredAggregationQuery needs a structuredQuery")
        }
        query = Query(database: database, parent: parent, structured: try StructuredQuery(restJSON: structured))
        aggregations = try (object.array("aggregations") ?? []).enumerated().map { index, element in
            let path = "aggregations[\(index)]"
            let aggregation = try QueryJSON(element, at: path)
            try aggregation.allowOnly(["alias", "count", "sum", "avg"])
            let alias = try aggregation.string("alias")
            if let count = aggregation["count"] {
                let upTo = try QueryJSON(count, at: "\(path).count")
                try upTo.allowOnly(["upTo", "up_to"])
                let limit: Int64? = try upTo["upTo", "up_to"].map { value in
                    if case .object = value { return try QueryJSON(value, at: "\(path).count.upTo").integer("value") ?? 0 }
                    return try QueryJSON.integer(value, at: "\(path).count.upTo")
                }
                return Aggregation(.count(upTo: limit), alias: alias)
            }
            for (name, make) in [("sum", Aggregation.Kind.sum), ("avg", Aggregation.Kind.average)] {
                guard let body = aggregation[name] else { continue }
                let operand = try QueryJSON(body, at: "\(path).\(name)")
                try operand.allowOnly(["field"])
                guard let field = operand["field"] else {
                    throw FirestoreError.invalidArgument("\(path).\(name) needs a field")
                }
                return Aggregation(make(try QueryJSON.fieldReference(field, at: "\(path).\(name).field")), alias: alias)
            }
            throw FirestoreError.invalidArgument("\(path) has no count, sum or avg")
        }
    }
}
