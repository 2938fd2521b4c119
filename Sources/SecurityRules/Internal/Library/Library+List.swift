extension Library {
    /// Whether every element of `elements` is in `container`: nested loops for small inputs,
    /// a hash index for large ones.
    static func containsAll(_ container: [RValue], _ elements: [RValue], mode: EqualityMode) -> Bool {
        if container.count * elements.count <= 256 {
            return elements.allSatisfy { element in container.contains { RValue.equal($0, element, mode: mode) } }
        }
        let index = ValueIndex(container, equality: mode)
        return elements.allSatisfy { index.contains($0) }
    }

    /// Whether some element of `elements` is in `container`.
    static func containsAny(_ container: [RValue], _ elements: [RValue], mode: EqualityMode) -> Bool {
        if container.count * elements.count <= 256 {
            return elements.contains { element in container.contains { RValue.equal($0, element, mode: mode) } }
        }
        let index = ValueIndex(container, equality: mode)
        return elements.contains { index.contains($0) }
    }

    static func list(_ value: RValue) -> [RValue] {
        if case .list(let list) = value { return list }
        if case .set(let set) = value { return set.elements }
        return []
    }

    static let listMethods: [Method] = [
        Method("size", on: "list") { receiver, _, _, _ in .int(Int64(list(receiver).count)) },
        Method("hasAll", on: "list", [["list"]]) { receiver, arguments, _, _ in
            .bool(containsAll(list(receiver), list(arguments[0]), mode: .strict))
        },
        Method("hasAny", on: "list", [["list"]]) { receiver, arguments, _, _ in
            .bool(containsAny(list(receiver), list(arguments[0]), mode: .strict))
        },
        Method("hasOnly", on: "list", [["list"]]) { receiver, arguments, _, _ in
            .bool(containsAll(list(arguments[0]), list(receiver), mode: .strict))
        },
        Method("concat", on: "list", [["list"]]) { receiver, arguments, _, call in
            let result = list(receiver) + list(arguments[0])
            return result.count > Operators.maximumValueSize / 16 ? Operators.tooLarge(span: call.span) : .list(result)
        },
        Method("removeAll", on: "list", [["list"]]) { receiver, arguments, _, _ in
            let index = ValueIndex(list(arguments[0]), equality: .strict)
            return .list(list(receiver).filter { !index.contains($0) })
        },
        Method("toSet", on: "list") { receiver, _, _, _ in .set(RSet(list(receiver))) },
        Method("join", on: "list", [["string"]]) { receiver, arguments, _, call in
            guard case .string(let separator) = arguments[0] else { return .null }
            var parts: [String] = []
            var total = 0
            for element in list(receiver) {
                switch Conversions.toString(element, span: call.span) {
                case .string(let text):
                    total += text.utf8.count + separator.utf8.count
                    guard total <= Operators.maximumValueSize else { return Operators.tooLarge(span: call.span) }
                    parts.append(text)
                case let other: return other
                }
            }
            return .string(parts.joined(separator: separator))
        },
    ]
}
