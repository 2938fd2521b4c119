import DocumentModel

/// `map.keys().hasAll(['a', 'b'])` (and `hasAny`, `hasOnly`) with a literal list: the keys are
/// tested where they are, without building the list of keys. Any receiver other than a map
/// goes the general way, with the same results and errors as the two calls it stands for.
/// A function parameter or `let` receiver (`data.keys()`) is read in its slot, not copied.
final class KeysMembershipNode: Node {
    let receiver: Node
    let keysTable: MethodTable
    let membershipTable: MethodTable
    let list: ConstantStringList
    let listValue: RValue
    let kind: Kind
    let keysSpan: SourceSpan
    /// The slot of a `SlotNode` receiver.
    let receiverSlot: Int?

    enum Kind {
        case all, any, only
    }

    init(
        receiver: Node, keysTable: MethodTable, membershipTable: MethodTable, list: ConstantStringList,
        listValue: RValue, kind: Kind, keysSpan: SourceSpan, span: SourceSpan
    ) {
        self.receiver = receiver
        self.keysTable = keysTable
        self.membershipTable = membershipTable
        self.list = list
        self.listValue = listValue
        self.kind = kind
        self.keysSpan = keysSpan
        receiverSlot = (receiver as? SlotNode)?.index
        // The keys() call, the membership call and its literal argument.
        super.init(span: span, cost: 3)
    }

    override func evaluate(_ context: EvalContext) -> RValue {
        guard let receiverSlot else { return test(context.eval(receiver), context) }
        // As `context.eval(receiver)` (the node records no coverage: fused nodes exist without it).
        if let limit = context.enter(receiver) { return limit }
        let slot = context.frameBase + receiverSlot
        if let map = context.slotMap(slot), let verdict = map.with(test) { return verdict }
        return test(context.readSlot(slot), context)
    }

    /// The verdict on a document-backed map; `nil` for other maps.
    private func test(_ map: RMap) -> RValue? {
        map.withDocumentEntries { entries in
            switch kind {
            case .all:
                var seen: UInt64 = 0
                for entry in entries {
                    let index = list.position(of: entry.key)
                    if index >= 0 { seen |= 1 << UInt64(index) }
                }
                let all: UInt64 = list.strings.count == 64 ? .max : (1 << UInt64(list.strings.count)) - 1
                return .bool(seen == all)
            case .any:
                return .bool(entries.contains { list.position(of: $0.key) >= 0 })
            case .only:
                return .bool(entries.allSatisfy { list.position(of: $0.key) >= 0 })
            }
        }
    }

    private func test(_ target: RValue, _ context: EvalContext) -> RValue {
        if case .error = target { return target }
        if case .map(let map) = target, let verdict = test(map) { return verdict }
        let keys = keysTable.call(target, Arguments(), CallSite(span: keysSpan, context: context))
        if case .error = keys { return keys }
        var arguments = Arguments()
        arguments.append(listValue)
        return membershipTable.call(keys, arguments, CallSite(span: span, context: context))
    }
}
