import DocumentModel

/// Turns the data of `setData`, `updateData` and `delete` into store writes, as the Firebase
/// SDK parses user data: `FieldValue` sentinels become transforms (or deletions in the mask),
/// a merge's mask is every leaf field written, an update's mask is its keys.
enum WriteParser {
    /// A full set: replaces the document. `FieldValue.delete()` is not allowed.
    static func set(_ data: [String: Any], at name: DocumentName) throws -> Write {
        var parsed = Parsed(database: name.databaseID)
        let fields = try parsed.map(data, at: nil, allowDelete: false, method: "setData()")
        return .set(name, fields: fields, transforms: parsed.transforms)
    }

    /// A full set of the fields `Firestore.Encoder` encoded: the same write as `set` of their
    /// `[String: Any]`, without that step.
    static func set(_ fields: [String: EncodedNode], at name: DocumentName) throws -> Write {
        var parsed = Parsed(database: name.databaseID)
        let map = try parsed.map(fields, at: nil, method: "setData()")
        return .set(name, fields: map, transforms: parsed.transforms)
    }

    /// A set with merge: writes the leaf fields of `data` and leaves the others.
    static func merge(_ data: [String: Any], at name: DocumentName) throws -> Write {
        var parsed = Parsed(database: name.databaseID)
        let fields = try parsed.map(data, at: nil, allowDelete: true, method: "setData(_:merge:)")
        return .setMerge(name, fields: fields, mask: parsed.leafPaths, transforms: parsed.transforms)
    }

    /// A set with merge of only `fieldPaths` (each must be present in `data`).
    static func merge(_ data: [String: Any], fields fieldPaths: [DocumentModel.FieldPath], at name: DocumentName) throws
        -> Write
    {
        var parsed = Parsed(database: name.databaseID)
        let all = try parsed.map(data, at: nil, allowDelete: true, method: "setData(_:mergeFields:)")
        var fields = MapValue()
        for path in fieldPaths {
            let isSentinel = parsed.deletedPaths.contains { $0.hasPrefix(path) }
                || parsed.transforms.contains { $0.fieldPath.hasPrefix(path) }
            guard let value = all.value(at: path) else {
                guard isSentinel else {
                    throw FirestoreError.invalidArgument(
                        "Field '\(path)' is specified in your field mask but missing from your input data.")
                }
                continue
            }
            fields.setValue(value, at: path)
        }
        let transforms = parsed.transforms.filter { transform in fieldPaths.contains { transform.fieldPath.hasPrefix($0) } }
        let mask = fieldPaths.filter { path in !transforms.contains { $0.fieldPath == path } }
        return .setMerge(name, fields: fields, mask: mask, transforms: transforms)
    }

    /// An update of a document that must exist; keys are dotted field paths (`String`) or
    /// `FieldPath`s.
    static func update(_ data: [AnyHashable: Any], at name: DocumentName) throws -> Write {
        var parsed = Parsed(database: name.databaseID)
        var fields = MapValue()
        var mask: [DocumentModel.FieldPath] = []
        for (key, value) in data {
            let path: DocumentModel.FieldPath
            switch key.base {
            case let text as String: path = try FieldPath.parsingDots(text)
            case let fieldPath as FieldPath: path = try fieldPath.modelPath()
            default:
                throw FirestoreError.invalidArgument(
                    "updateData() keys must be String or FieldPath, not \(type(of: key.base))")
            }
            if let conflict = mask.first(where: { $0.hasPrefix(path) || path.hasPrefix($0) }) {
                throw FirestoreError.invalidArgument("Field '\(path)' conflicts with field '\(conflict)' in updateData()")
            }
            if let sentinel = value as? FieldValue {
                try parsed.record(sentinel, at: path, allowDelete: true, method: "updateData()")
                if case .delete = sentinel.kind { mask.append(path) }
                continue
            }
            let converted: Value
            if let map = value as? [String: Any] {
                converted = .map(try parsed.map(map, at: path, allowDelete: false, method: "updateData()"))
            } else {
                converted = try ValueConverter.value(from: value, at: path.description, in: name.databaseID)
            }
            fields.setValue(converted, at: path)
            mask.append(path)
        }
        guard !data.isEmpty else {
            throw FirestoreError.invalidArgument("updateData() needs at least one field to update")
        }
        return .update(name, fields: fields, mask: mask, transforms: parsed.transforms)
    }

    /// What parsing collected besides the fields.
    private struct Parsed {
        let database: DatabaseID
        var transforms: [FieldTransform] = []
        /// The paths of every value written (maps descended into; an empty map is a leaf) and
        /// of every deleted field: a merge's mask.
        var leafPaths: [DocumentModel.FieldPath] = []
        var deletedPaths: [DocumentModel.FieldPath] = []

        init(database: DatabaseID) {
            self.database = database
        }

        mutating func map(
            _ data: [String: Any], at prefix: DocumentModel.FieldPath?, allowDelete: Bool, method: String
        ) throws -> MapValue {
            var map = MapValue()
            for (key, value) in data {
                try Parsed.checkName(key, method: method)
                let path = Parsed.path(of: key, in: prefix)
                if let sentinel = value as? FieldValue {
                    try record(sentinel, at: path, allowDelete: allowDelete, method: method)
                    if case .delete = sentinel.kind { leafPaths.append(path) }
                } else if let nested = value as? [String: Any], !nested.isEmpty {
                    map[key] = .map(try self.map(nested, at: path, allowDelete: allowDelete, method: method))
                } else {
                    map[key] = try ValueConverter.value(from: value, at: path.description, in: database)
                    leafPaths.append(path)
                }
            }
            return map
        }

        /// The fields of a full set encoded by `Firestore.Encoder`, as `map` parses their
        /// `[String: Any]`: converted leaves are taken as they are, the others converted here.
        mutating func map(_ fields: [String: EncodedNode], at prefix: DocumentModel.FieldPath?, method: String) throws
            -> MapValue
        {
            var map = MapValue()
            for (key, node) in fields {
                try Parsed.checkName(key, method: method)
                switch node.content {
                case .value(let value, _):
                    map[key] = value
                case .sentinel(let sentinel):
                    try record(sentinel, at: Parsed.path(of: key, in: prefix), allowDelete: false, method: method)
                case .map(let nested) where !nested.isEmpty:
                    map[key] = .map(try self.map(nested, at: Parsed.path(of: key, in: prefix), method: method))
                default:
                    let field = Parsed.path(of: key, in: prefix).description
                    map[key] = try ValueConverter.value(from: node.resolved, at: field, in: database)
                }
            }
            return map
        }

        /// Field names must not be empty.
        private static func checkName(_ key: String, method: String) throws {
            guard !key.isEmpty else {
                throw FirestoreError.invalidArgument("Invalid data. Field names must not be empty (in \(method))")
            }
        }

        /// The path of the field `key` in the map at `prefix`.
        private static func path(of key: String, in prefix: DocumentModel.FieldPath?) -> DocumentModel.FieldPath {
            prefix?.appending(key) ?? DocumentModel.FieldPath(uncheckedSegment: key)
        }

        mutating func record(
            _ sentinel: FieldValue, at path: DocumentModel.FieldPath, allowDelete: Bool, method: String
        ) throws {
            if let error = sentinel.operandError { throw error }
            switch sentinel.kind {
            case .delete:
                guard allowDelete else {
                    throw FirestoreError.invalidArgument(
                        "FieldValue.delete() can only be used with updateData() and setData() with merge "
                            + "(found in field '\(path)' in \(method))")
                }
                deletedPaths.append(path)
            case .transform(let kind):
                transforms.append(FieldTransform(path, kind))
            }
        }
    }
}
