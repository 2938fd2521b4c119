/// Firestore's vector values (the clients' `Vector`, `VectorValue`): on the wire and in storage
/// a map of exactly two fields, `__type__: "__vector__"` and `value`: an array of doubles.
///
/// Firestore recognizes them by that shape, and so does Hearth: a vector stays a `.map` value,
/// but it is its own type in the value order (after arrays, before maps), orders by length and
/// then element by element, and is a leaf for field paths (`e.value` does not reach into it).
/// Vector elements compare as Java's `Double.compare` does, as Google's emulator measures:
/// `-0.0` sorts before (and differs from) `0.0`, and NaN sorts after every other number.
///
/// ```swift
/// let embedding = Value.vector([0.12, -0.5, 3.0])
/// embedding.vectorElements   // [0.12, -0.5, 3.0]
/// ```
extension Value {
    /// The field that marks a map as a typed value (`__type__`).
    package static let vectorTypeKey = "__type__"
    /// The `__type__` of a vector.
    package static let vectorTypeName = "__vector__"
    /// The field that holds a vector's elements.
    package static let vectorValueKey = "value"
    /// The most elements a stored vector may have.
    package static let maxVectorDimensions = 2048

    /// A vector value holding `elements`.
    public static func vector(_ elements: [Double]) -> Value {
        .map(MapValue(vectorElements: elements))
    }

    /// The elements, if this is a vector: a map of exactly `__type__: "__vector__"` and
    /// `value` holding only doubles.
    public var vectorElements: [Double]? {
        guard case .map(let map) = self else { return nil }
        return map.vectorElements
    }

    /// Whether this is a vector.
    public var isVector: Bool {
        guard case .map(let map) = self else { return false }
        return map.isVector
    }

    /// Vectors in Firestore's order: the shorter first, then element by element.
    static func compareVectors(_ lhs: MapValue, _ rhs: MapValue) -> Int {
        guard let left = lhs.vectorArray, let right = rhs.vectorArray else { return 0 }
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        for (leftElement, rightElement) in zip(left, right) {
            guard case .double(let a) = leftElement, case .double(let b) = rightElement else { continue }
            let order = compareVectorElements(a, b)
            if order != 0 { return order }
        }
        return 0
    }

    /// Compares two vector elements (negative, zero or positive) as Java's `Double.compare`
    /// does: NaN after every number and equal to itself, `-0.0` before `0.0`.
    package static func compareVectorElements(_ lhs: Double, _ rhs: Double) -> Int {
        if lhs.isNaN { return rhs.isNaN ? 0 : 1 }
        if rhs.isNaN { return -1 }
        if lhs < rhs { return -1 }
        if lhs > rhs { return 1 }
        // Equal numbers: only the zeros can differ, by sign.
        return lhs.sign == rhs.sign ? 0 : (lhs.sign == .minus ? -1 : 1)
    }
}

extension MapValue {
    /// The two fields of a vector holding `elements`.
    public init(vectorElements elements: [Double]) {
        self.init(uniqueKeysWithValues: [
            (Value.vectorTypeKey, .string(Value.vectorTypeName)),
            (Value.vectorValueKey, .array(elements.map(Value.double))),
        ])
    }

    /// Whether the map has the vector's shape: exactly `__type__: "__vector__"` and `value`, an
    /// array of doubles.
    public var isVector: Bool { vectorArray != nil }

    /// The elements, if the map is a vector.
    public var vectorElements: [Double]? {
        vectorArray?.compactMap { element in
            if case .double(let value) = element { value } else { nil }
        }
    }

    /// The `value` array (every element a double), if the map is a vector.
    var vectorArray: [Value]? {
        // Keys sort by UTF-8 bytes: `__type__` (0x5F) before `value` (0x76).
        guard entries.count == 2, utf8Equal(entries[0].key, Value.vectorTypeKey),
            utf8Equal(entries[1].key, Value.vectorValueKey),
            case .string(let type) = entries[0].value, type == Value.vectorTypeName,
            case .array(let elements) = entries[1].value,
            elements.allSatisfy({ if case .double = $0 { true } else { false } })
        else { return nil }
        return elements
    }

    /// Whether a field path may continue into this map: a map, but not a vector, whose fields
    /// are not addressable (as in Firestore, `e.value` of a vector `e` is absent, and writing
    /// it replaces the vector with a map).
    var isNestable: Bool { !isVector }
}

extension Value {
    /// The fields, if this is a map a field path may continue into (not a vector).
    var nestableMap: MapValue? {
        guard case .map(let map) = self, map.isNestable else { return nil }
        return map
    }
}
