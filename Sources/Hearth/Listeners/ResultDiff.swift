import DocumentModel

/// The `DocumentChange`s between two ordered results, as the Firebase SDKs compute them over a
/// sorted set: removals first (indexes in the shrinking set), then additions and modifications
/// in the new order, each removed from its old place and inserted where the query's order puts
/// it. Documents whose content did not change produce no change.
enum ResultDiff {
    struct Change {
        var type: DocumentChange.ChangeType
        var document: Document
        var oldIndex: Int
        var newIndex: Int
    }

    static func changes(
        from old: [Document], to new: [Document], precedes: (Document, Document) -> Bool
    ) -> [Change] {
        let newNames = Set(new.map(\.name))
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [Change] = []
        var running: [Document] = []
        for document in old {
            if newNames.contains(document.name) {
                running.append(document)
            } else {
                changes.append(Change(type: .removed, document: document, oldIndex: running.count, newIndex: -1))
            }
        }
        for document in new {
            let previous = oldByName[document.name]
            guard previous != document else { continue }
            var oldIndex = -1
            if previous != nil, let position = running.firstIndex(where: { $0.name == document.name }) {
                oldIndex = position
                running.remove(at: position)
            }
            let newIndex = running.firstIndex { precedes(document, $0) } ?? running.count
            running.insert(document, at: newIndex)
            changes.append(Change(
                type: oldIndex < 0 ? .added : .modified, document: document, oldIndex: oldIndex, newIndex: newIndex))
        }
        return changes
    }
}
