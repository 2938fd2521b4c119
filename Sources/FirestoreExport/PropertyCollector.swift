import DocumentModel

/// Gathers an entity's properties into fields: a property with `multiple` adds an element to
/// an array of that name, one with the vector meaning an element to a vector, any other is the
/// field's whole value (and may appear once).
struct PropertyCollector {
    private enum Field {
        case single(Value)
        case array([Value])
        case vector([Double])
    }

    private var names: [String] = []
    private var fields: [String: Field] = [:]

    mutating func add(_ name: String, _ value: Value, meaning: UInt64, multiple: Bool, at offset: Int) throws {
        let existing = fields[name]
        if existing == nil { names.append(name) }
        switch (existing, meaning == EntityFields.Meaning.vector, multiple) {
        case (nil, true, _), (.vector, true, _):
            guard case .double(let element) = value else {
                throw ExportError(
                    .malformed, "vector property '\(name)' holds a value that is not a double", offset: offset)
            }
            if case .vector(let elements) = existing {
                fields[name] = .vector(elements + [element])
            } else {
                fields[name] = .vector([element])
            }
        case (nil, false, true):
            fields[name] = .array([value])
        case (.array(var elements), false, true):
            elements.append(value)
            fields[name] = .array(elements)
        case (nil, false, false):
            fields[name] = .single(value)
        default:
            throw ExportError(.malformed, "property '\(name)' appears twice", offset: offset)
        }
    }

    /// The fields as a map.
    var map: MapValue {
        var pairs: [(String, Value)] = []
        pairs.reserveCapacity(names.count)
        for name in names {
            switch fields[name] {
            case .single(let value):
                pairs.append((name, value))
            case .array(let elements):
                pairs.append((name, .array(elements)))
            case .vector(let elements):
                pairs.append((name, .vector(elements)))
            case nil:
                continue
            }
        }
        return MapValue(uniqueKeysWithValues: pairs)
    }
}
