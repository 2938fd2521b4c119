import DocumentModel

/// Gathers an entity's properties into fields: a property with `multiple` adds an element to
/// an array of that name, one with the vector meaning an element to a vector, any other is the
/// field's whole value (and may appear once).
///
/// Fields are kept in arrays in the order they come; a name is looked up by comparing names
/// while there are few (most entities), through a dictionary beyond that.
struct PropertyCollector {
    private enum Field {
        case single(Value)
        case array([Value])
        case vector([Double])
    }

    private var names: [String] = []
    private var fields: [Field] = []
    /// Where each name is in `names`, kept once there are more than `linearLimit` names.
    private var positions: [String: Int] = [:]
    private static let linearLimit = 16

    mutating func add(_ name: String, _ value: Value, meaning: UInt64, multiple: Bool, at offset: Int) throws {
        let isVector = meaning == EntityFields.Meaning.vector
        func vectorElement() throws -> Double {
            guard case .double(let element) = value else {
                throw ExportError(
                    .malformed, "vector property '\(name)' holds a value that is not a double", offset: offset)
            }
            return element
        }
        guard let index = position(of: name) else {
            if isVector {
                append(name, .vector([try vectorElement()]))
            } else {
                append(name, multiple ? .array([value]) : .single(value))
            }
            return
        }
        // The element is appended in place: the field is taken out of `fields` first.
        switch (fields[index], isVector, multiple) {
        case (.vector(var elements), true, _):
            let element = try vectorElement()
            fields[index] = .single(.null)
            elements.append(element)
            fields[index] = .vector(elements)
        case (.array(var elements), false, true):
            fields[index] = .single(.null)
            elements.append(value)
            fields[index] = .array(elements)
        default:
            throw ExportError(.malformed, "property '\(name)' appears twice", offset: offset)
        }
    }

    private func position(of name: String) -> Int? {
        names.count <= Self.linearLimit ? names.firstIndex(of: name) : positions[name]
    }

    private mutating func append(_ name: String, _ field: Field) {
        names.append(name)
        fields.append(field)
        if names.count > Self.linearLimit {
            if positions.isEmpty {
                for (index, name) in names.enumerated() { positions[name] = index }
            } else {
                positions[name] = names.count - 1
            }
        }
    }

    /// The fields as a map.
    var map: MapValue {
        var map = MapValue()
        for (name, field) in zip(names, fields) {
            switch field {
            case .single(let value): map[name] = value
            case .array(let elements): map[name] = .array(elements)
            case .vector(let elements): map[name] = .vector(elements)
            }
        }
        return map
    }
}
