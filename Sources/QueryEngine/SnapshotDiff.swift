package import DocumentModel

/// The changes between two ordered results, as Firestore's SDKs report `DocumentChange`s:
/// removals first, then additions, then modifications, each group in the query's order; each
/// change's indexes are positions in the result with all earlier changes applied (the result
/// kept sorted by the query's order).
package enum SnapshotDiff {
    /// - Parameter precedes: the query's order (a strict order on documents, names last).
    package static func changes(
        from old: [Document], to new: [Document], precedes: (Document, Document) -> Bool
    ) -> [ListenChange] {
        var oldByName: [DocumentName: Document] = [:]
        oldByName.reserveCapacity(old.count)
        for document in old { oldByName[document.name] = document }
        var newNames: Set<DocumentName> = []
        newNames.reserveCapacity(new.count)
        for document in new { newNames.insert(document.name) }

        var working = old
        var changes: [ListenChange] = []
        for document in old where !newNames.contains(document.name) {
            let index = working.firstIndex { $0.name == document.name }!
            working.remove(at: index)
            changes.append(ListenChange(kind: .removed, document: document, oldIndex: index, newIndex: -1))
        }
        for document in new where oldByName[document.name] == nil {
            let index = insertionIndex(of: document, in: working, precedes: precedes)
            working.insert(document, at: index)
            changes.append(ListenChange(kind: .added, document: document, oldIndex: -1, newIndex: index))
        }
        for document in new {
            guard let previous = oldByName[document.name],
                previous.updateTime != document.updateTime
                    || !Value.map(previous.fields).isIdentical(to: .map(document.fields))
            else { continue }
            let oldIndex = working.firstIndex { $0.name == document.name }!
            working.remove(at: oldIndex)
            let newIndex = insertionIndex(of: document, in: working, precedes: precedes)
            working.insert(document, at: newIndex)
            changes.append(ListenChange(kind: .modified, document: document, oldIndex: oldIndex, newIndex: newIndex))
        }
        return changes
    }

    /// Where `document` goes in the sorted `documents` (binary search).
    private static func insertionIndex(
        of document: Document, in documents: [Document], precedes: (Document, Document) -> Bool
    ) -> Int {
        var low = 0
        var high = documents.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(documents[middle], document) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
