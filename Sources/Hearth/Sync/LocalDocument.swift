import DocumentModel
import QueryEngine

/// A document as this instance sees it: the server's version with every pending write of the
/// mutation queue applied.
///
/// A server timestamp not yet set by the server reads as the local write time in `document`;
/// `pendingServerTimestamps` remembers which fields hold such an estimate, and what they held
/// before, for `ServerTimestampBehavior`.
struct LocalDocument: Sendable, Equatable {
    var document: Document
    /// Whether a write not yet acknowledged by the server changed it.
    var hasPendingWrites: Bool
    /// The fields set by pending server timestamps, and their values before (`nil`: absent).
    var pendingServerTimestamps: [DocumentModel.FieldPath: Value?]

    init(_ document: Document, hasPendingWrites: Bool = false, pendingServerTimestamps: [DocumentModel.FieldPath: Value?] = [:]) {
        self.document = document
        self.hasPendingWrites = hasPendingWrites
        self.pendingServerTimestamps = pendingServerTimestamps
    }

    var name: DocumentName { document.name }

    /// The fields with pending server timestamps shown as `behavior` asks.
    func fields(_ behavior: ServerTimestampBehavior) -> MapValue {
        LocalDocument.fields(document.fields, pendingServerTimestamps, behavior)
    }

    static func fields(
        _ fields: MapValue, _ pending: [DocumentModel.FieldPath: Value?], _ behavior: ServerTimestampBehavior
    ) -> MapValue {
        guard !pending.isEmpty, behavior != .estimate else { return fields }
        var shown = fields
        for (path, previous) in pending {
            switch behavior {
            case .none: shown.setValue(.null, at: path)
            case .previous: shown.setValue(previous ?? .null, at: path)
            case .estimate: break
            }
        }
        return shown
    }
}

/// A document's local state while writes are applied to it in turn.
struct LocalOverlay {
    var document: Document?
    var hasPendingWrites = false
    var pendingServerTimestamps: [DocumentModel.FieldPath: Value?] = [:]

    init(_ document: Document?) {
        self.document = document
    }

    var localDocument: LocalDocument? {
        document.map {
            LocalDocument($0, hasPendingWrites: hasPendingWrites, pendingServerTimestamps: pendingServerTimestamps)
        }
    }

    /// Applies a pending write made at `localWriteTime`, as the SDKs do: a write whose
    /// precondition fails on the local state (an update of a document not in the cache) leaves
    /// it unchanged; server timestamps take the local write time as their estimate.
    mutating func apply(_ write: Write, at localWriteTime: Timestamp) {
        hasPendingWrites = true
        guard (try? WriteApplication.check(write.precondition, against: document, name: write.name)) != nil else { return }
        let before = document
        guard let (after, _) = try? WriteApplication.apply(write, to: before, commitTime: localWriteTime) else { return }
        switch write.operation {
        case .delete:
            pendingServerTimestamps = [:]
        case .update(_, nil):
            pendingServerTimestamps = [:]
        case .update(_, let mask?):
            pendingServerTimestamps = pendingServerTimestamps.filter { path, _ in
                !mask.contains { path == $0 || path.hasPrefix($0) }
            }
        case .transform:
            break
        }
        for transform in write.transforms {
            if case .serverTimestamp = transform.kind {
                let previous = pendingServerTimestamps[transform.fieldPath] ?? before?.fields.value(at: transform.fieldPath)
                pendingServerTimestamps[transform.fieldPath] = .some(previous)
            } else {
                pendingServerTimestamps[transform.fieldPath] = nil
            }
        }
        document = after.map { document in
            var document = document
            // A pending document keeps the server's times until the server answers.
            document.createTime = before?.createTime ?? localWriteTime
            return document
        }
    }

    /// Applies a write the server acknowledged at `commitTime`, with the values its transforms
    /// took on the server.
    mutating func applyAcknowledged(_ write: Write, commitTime: Timestamp, transformResults: [Value]) {
        guard let (after, _) = try? WriteApplication.apply(write, to: document, commitTime: commitTime) else { return }
        guard var after else {
            document = nil
            return
        }
        for (transform, result) in zip(write.transforms, transformResults) {
            switch transform.kind {
            case .appendMissingElements, .removeAllFromArray: continue
            default: after.fields.setValue(result, at: transform.fieldPath)
            }
        }
        document = after
    }
}
