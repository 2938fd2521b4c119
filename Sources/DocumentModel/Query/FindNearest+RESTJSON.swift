extension FindNearest {
    /// Decodes a `StructuredQuery.FindNearest` object (JSON or proto member names).
    public init(restJSON json: JSONValue, at path: String) throws {
        let object = try QueryJSON(json, at: path)
        try object.allowOnly([
            "vectorField", "vector_field", "queryVector", "query_vector", "distanceMeasure", "distance_measure",
            "limit", "distanceResultField", "distance_result_field", "distanceThreshold", "distance_threshold",
        ])
        guard let field = object["vectorField", "vector_field"] else {
            throw FirestoreError.invalidArgument("Invalid empty property path string.")
        }
        vectorField = try QueryJSON.fieldReference(field, at: "\(path).vectorField")
        guard let vector = object["queryVector", "query_vector"] else {
            throw FirestoreError.invalidArgument("Cannot convert firestore.v1.Value with type unset.")
        }
        queryVector = try RESTJSON.decodeValue(vector)
        distanceMeasure =
            switch object["distanceMeasure", "distance_measure"] {
            case .string("EUCLIDEAN"), .number("1"): .euclidean
            case .string("COSINE"), .number("2"): .cosine
            case .string("DOT_PRODUCT"), .number("3"): .dotProduct
            case .number(let text): .unknown(Int(text) ?? 0)
            default: .unknown(0)
            }
        limit = try object["limit"].map { limit in
            if case .object = limit { return Int(try QueryJSON(limit, at: "\(path).limit").integer("value") ?? 0) }
            return Int(try QueryJSON.integer(limit, at: "\(path).limit"))
        }
        let resultField = try object.string("distanceResultField", "distance_result_field") ?? ""
        distanceResultField = resultField.isEmpty ? nil : resultField
        distanceThreshold = try object["distanceThreshold", "distance_threshold"].map { threshold in
            var number = threshold
            if case .object = threshold, let wrapped = threshold["value"] { number = wrapped }
            guard case .double(let value) = try RESTJSON.decodeValue(.object([.init("doubleValue", number)])) else {
                throw FirestoreError.invalidArgument("\(path).distanceThreshold must be a number")
            }
            return value
        }
    }
}
