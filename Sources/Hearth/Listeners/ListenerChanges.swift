import DocumentModel
import QueryEngine

/// The changes between two states of a query listener, computed by the view engine's one
/// `SnapshotDiff`, as the Firebase SDKs report them: a document counts as modified when its
/// data changed (its update time alone does not).
enum ListenerChanges {
    struct Change {
        var type: DocumentChange.ChangeType
        var name: DocumentName
        var oldIndex: Int
        var newIndex: Int
    }

    /// - Parameters:
    ///   - old, new: the documents in the listener's order.
    ///   - view: the query's order (`nil`: names only).
    ///   - reversed: whether the listener's order is the reverse of the query's (`limit(toLast:)`).
    static func documentChanges(
        from old: [LocalDocument], to new: [LocalDocument], view: QueryView?, reversed: Bool
    ) -> [Change] {
        let precedes: (Document, Document) -> Bool = { lhs, rhs in
            guard let view else { return lhs.name < rhs.name }
            return reversed ? view.precedes(rhs, lhs) : view.precedes(lhs, rhs)
        }
        return SnapshotDiff.changes(from: old.map(dataOnly), to: new.map(dataOnly), precedes: precedes).map { change in
            let type: DocumentChange.ChangeType =
                switch change.kind {
                case .added: .added
                case .modified: .modified
                case .removed: .removed
                }
            return Change(type: type, name: change.document.name, oldIndex: change.oldIndex, newIndex: change.newIndex)
        }
    }

    /// The document with fixed times, so that only data differences count.
    private static func dataOnly(_ local: LocalDocument) -> Document {
        Document(name: local.name, fields: local.document.fields, createTime: .min, updateTime: .min)
    }
}
