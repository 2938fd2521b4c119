/// The implementation of `hasAll`, `hasAny` and `hasOnly` bound to a literal list of strings
/// (`keys().hasOnly(['a', 'b'])`, the common case): the strings and their lengths are
/// prepared once, and the receiver's elements are compared without building an index.
struct ConstantStringList: Sendable {
    let strings: [String]
    let lengths: [Int]

    /// `nil` unless `value` is a list of at most 64 distinct strings.
    init?(_ value: RValue) {
        guard case .list(let elements) = value, elements.count <= 64 else { return nil }
        var strings: [String] = []
        for element in elements {
            guard case .string(let text) = element else { return nil }
            if !strings.contains(where: { rulesStringEqual($0, text) }) { strings.append(text) }
        }
        self.strings = strings
        self.lengths = strings.map(\.utf8.count)
    }

    /// The position of `text` in the list, or -1.
    @inline(__always)
    func position(of text: String) -> Int {
        // Keys usually have the representation of the literal (short strings are stored inline).
        for index in 0..<strings.count where identicalRepresentation(strings[index], text) {
            return index
        }
        let length = text.utf8.count
        for index in 0..<strings.count where lengths[index] == length && rulesStringEqual(strings[index], text) {
            return index
        }
        return -1
    }

    /// The elements of a list or set receiver, or `nil` for another type.
    static func elements(_ receiver: RValue) -> [RValue]? {
        switch receiver {
        case .list(let list): list
        case .set(let set): set.elements
        default: nil
        }
    }

    /// Binds `name` (`hasAll`, `hasAny`, `hasOnly`) to this list; other receivers go to `generic`.
    func bind(_ name: String, generic: @escaping BuiltinImplementation) -> BuiltinImplementation? {
        let list = self
        switch name {
        case "hasAll":
            guard strings.count <= 64 else { return nil }
            let all: UInt64 = strings.count == 64 ? .max : (1 << UInt64(strings.count)) - 1
            return { receiver, arguments, call in
                guard let elements = ConstantStringList.elements(receiver) else {
                    return generic(receiver, arguments, call)
                }
                var seen: UInt64 = 0
                for element in elements {
                    if case .string(let text) = element {
                        let index = list.position(of: text)
                        if index >= 0 { seen |= 1 << UInt64(index) }
                    }
                }
                return .bool(seen == all)
            }
        case "hasAny":
            return { receiver, arguments, call in
                guard let elements = ConstantStringList.elements(receiver) else {
                    return generic(receiver, arguments, call)
                }
                for element in elements {
                    if case .string(let text) = element, list.position(of: text) >= 0 { return .true }
                }
                return .false
            }
        case "hasOnly":
            return { receiver, arguments, call in
                guard let elements = ConstantStringList.elements(receiver) else {
                    return generic(receiver, arguments, call)
                }
                for element in elements {
                    guard case .string(let text) = element, list.position(of: text) >= 0 else { return .false }
                }
                return .true
            }
        default:
            return nil
        }
    }
}
