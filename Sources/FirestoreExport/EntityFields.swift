/// The field numbers and meanings of the legacy App Engine entity format (`entity_pb`) that
/// Firestore exports use for documents, as far as Firestore values need them. See
/// `Docs/ExportFormat.md` for how each Firestore value maps onto it.
enum EntityFields {
    /// `EntityProto`.
    enum Entity {
        static let key = 13
        static let property = 14
        static let rawProperty = 15
        static let entityGroup = 16
    }

    /// `Reference` (an entity's key).
    enum Key {
        static let app = 13
        static let path = 14
        static let namespace = 20
        static let databaseID = 23
    }

    /// `Path`: repeated group `Element` (field 1).
    enum Path {
        static let element = 1
        static let type = 2
        static let id = 3
        static let name = 4
    }

    /// `Property`.
    enum Property {
        static let meaning = 1
        static let meaningURI = 2
        static let name = 3
        static let multiple = 4
        static let value = 5
        static let searchable = 6
        static let computed = 7
        static let ftsTokenization = 8
        static let locale = 9
    }

    /// `PropertyValue`, with its groups `PointValue` (5) and `ReferenceValue` (12).
    enum Value {
        static let int64 = 1
        static let boolean = 2
        static let string = 3
        static let double = 4
        static let point = 5
        static let pointX = 6
        static let pointY = 7
        static let reference = 12
        static let referenceApp = 13
        static let referenceElement = 14
        static let referenceType = 15
        static let referenceID = 16
        static let referenceName = 17
        static let referenceNamespace = 20
        static let referenceDatabaseID = 23
    }

    /// `Property.Meaning` values Firestore uses.
    enum Meaning {
        static let none: UInt64 = 0
        /// An `int64` of microseconds since the epoch: a timestamp.
        static let when: UInt64 = 7
        /// A point: a geo point (latitude in x, longitude in y).
        static let point: UInt64 = 9
        /// A string of bytes.
        static let blob: UInt64 = 14
        /// A short string of bytes (read).
        static let byteString: UInt64 = 16
        /// A string holding a serialized `EntityProto`: a map.
        static let entity: UInt64 = 19
        /// No value: an empty array.
        static let emptyList: UInt64 = 24
        /// One double of a vector (`multiple`).
        static let vector: UInt64 = 31
    }

    /// The prefix of an app id before the project (`dev~demo` on the emulator, `s~` in production).
    static func project(ofApp app: String) -> String {
        guard let tilde = app.firstIndex(of: "~") else { return app }
        return String(app[app.index(after: tilde)...])
    }
}
