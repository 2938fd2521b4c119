import DocumentModel

extension Library {
    static func map(_ value: RValue) -> RMap {
        if case .map(let map) = value { return map }
        return .empty
    }

    static let mapMethods: [Method] = [
        Method("size", on: "map") { receiver, _, _, _ in .int(Int64(map(receiver).count)) },
        Method("keys", on: "map") { receiver, _, _, _ in
            let map = map(receiver)
            if case .fields(let fields) = map.storage {
                var keys: [RValue] = []
                keys.reserveCapacity(fields.count)
                for entry in fields.entries { keys.append(.string(entry.key)) }
                return .list(keys)
            }
            return .list(map.keys.map(RValue.string))
        },
        Method("values", on: "map") { receiver, _, _, _ in .list(map(receiver).values) },
        Method("get", on: "map", [["string", "any"], ["list", "any"]]) { receiver, arguments, overload, call in
            if overload == 0, case .string(let key) = arguments[0] {
                return map(receiver)[key] ?? arguments[1]
            }
            var current = receiver
            for key in list(arguments[0]) {
                guard case .string(let name) = key else {
                    return RError.typeError(received: key.typeName, expected: "string", span: call.span)
                }
                guard case .map(let inner) = current, let next = inner[name] else { return arguments[1] }
                current = next
            }
            return current
        },
        Method("diff", on: "map", [["map"]]) { receiver, arguments, _, _ in
            let new = map(receiver)
            let old = map(arguments[0])
            var diff = RMapDiff(added: [], removed: [], changed: [], unchanged: [])
            let newEntries = new.entries
            let oldEntries = old.entries
            var i = 0
            var j = 0
            while i < newEntries.count || j < oldEntries.count {
                let order: Int
                if i == newEntries.count {
                    order = 1
                } else if j == oldEntries.count {
                    order = -1
                } else {
                    order = compareUTF8(newEntries[i].key, oldEntries[j].key)
                }
                if order < 0 {
                    diff.added.append(newEntries[i].key)
                    i += 1
                } else if order > 0 {
                    diff.removed.append(oldEntries[j].key)
                    j += 1
                } else {
                    if RValue.equal(newEntries[i].value, oldEntries[j].value) {
                        diff.unchanged.append(newEntries[i].key)
                    } else {
                        diff.changed.append(newEntries[i].key)
                    }
                    i += 1
                    j += 1
                }
            }
            return .mapDiff(diff)
        },
    ]
}
