public import DocumentModel

// Codable conformances of the types Firestore stores natively. `Firestore.Encoder` and
// `Firestore.Decoder` pass these through as Firestore values; other coders (JSON, property
// lists) get the keyed forms below, as the Firebase SDK gives them.

extension DocumentModel.Timestamp: Codable {
    private enum CodingKeys: String, CodingKey {
        case seconds
        case nanoseconds
    }

    /// Decodes `{seconds, nanoseconds}` from coders other than `Firestore.Decoder`.
    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            seconds: try container.decode(Int64.self, forKey: .seconds),
            nanoseconds: try container.decode(Int32.self, forKey: .nanoseconds))
    }

    /// Encodes `{seconds, nanoseconds}` for coders other than `Firestore.Encoder`.
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(nanoseconds, forKey: .nanoseconds)
    }
}

extension DocumentModel.GeoPoint: Codable {
    private enum CodingKeys: String, CodingKey {
        case latitude
        case longitude
    }

    /// Decodes `{latitude, longitude}` from coders other than `Firestore.Decoder`.
    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitude: try container.decode(Double.self, forKey: .latitude),
            longitude: try container.decode(Double.self, forKey: .longitude))
    }

    /// Encodes `{latitude, longitude}` for coders other than `Firestore.Encoder`.
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
    }
}

extension DocumentReference: Codable {
    /// Only `Firestore.Decoder` can decode a reference (it needs the database).
    public convenience init(from decoder: any Swift.Decoder) throws {
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "DocumentReference can only be decoded by Firestore.Decoder"))
    }

    /// Only `Firestore.Encoder` can encode a reference.
    public func encode(to encoder: any Swift.Encoder) throws {
        throw EncodingError.invalidValue(
            self, EncodingError.Context(
                codingPath: encoder.codingPath, debugDescription: "DocumentReference can only be encoded by Firestore.Encoder"))
    }
}

extension FieldValue: Encodable {
    /// Only `Firestore.Encoder` can encode a sentinel.
    public func encode(to encoder: any Swift.Encoder) throws {
        throw EncodingError.invalidValue(
            self, EncodingError.Context(
                codingPath: encoder.codingPath, debugDescription: "FieldValue can only be encoded by Firestore.Encoder"))
    }
}
