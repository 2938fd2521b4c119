extension Library {
    static func set(_ value: RValue) -> RSet {
        switch value {
        case .set(let set): set
        case .list(let list): RSet(list)
        default: RSet()
        }
    }

    static let setMethods: [Method] = [
        Method("size", on: "set") { receiver, _, _, _ in .int(Int64(set(receiver).count)) },
        Method("hasAll", on: "set", [["list"], ["set"]]) { receiver, arguments, _, _ in
            let index = set(receiver).makeIndex()
            return .bool(list(arguments[0]).allSatisfy { index.contains($0) })
        },
        Method("hasAny", on: "set", [["list"], ["set"]]) { receiver, arguments, _, _ in
            let index = set(receiver).makeIndex()
            return .bool(list(arguments[0]).contains { index.contains($0) })
        },
        Method("hasOnly", on: "set", [["list"], ["set"]]) { receiver, arguments, _, _ in
            let index = ValueIndex(list(arguments[0]), equality: .numeric)
            return .bool(set(receiver).elements.allSatisfy { index.contains($0) })
        },
        Method("union", on: "set", [["set"]]) { receiver, arguments, _, _ in
            .set(RSet(set(receiver).elements + set(arguments[0]).elements))
        },
        Method("intersection", on: "set", [["set"]]) { receiver, arguments, _, _ in
            let index = set(arguments[0]).makeIndex()
            return .set(RSet(set(receiver).elements.filter { index.contains($0) }))
        },
        Method("difference", on: "set", [["set"]]) { receiver, arguments, _, _ in
            let index = set(arguments[0]).makeIndex()
            return .set(RSet(set(receiver).elements.filter { !index.contains($0) }))
        },
    ]
}
