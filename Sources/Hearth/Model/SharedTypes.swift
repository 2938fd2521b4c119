// The model types the client API shares with the rest of Hearth are re-exported one by one (not
// the whole of DocumentModel, whose `Query` and `FieldPath` are not the client's), so that an app
// importing only Hearth sees their members under MemberImportVisibility (`error.code`,
// `timestamp.dateValue`); the typealiases below name them in Hearth's documentation.
@_exported public import struct DocumentModel.FirestoreError
@_exported public import struct DocumentModel.GeoPoint
@_exported public import struct DocumentModel.Timestamp
public import DocumentModel
import Foundation

/// A point in time with nanosecond precision, as Firestore stores it (`Timestamp(date:)`,
/// `dateValue`, `seconds`, `nanoseconds`).
public typealias Timestamp = DocumentModel.Timestamp

/// A latitude and longitude in degrees (`try GeoPoint(latitude: 48.85, longitude: 2.35)`).
public typealias GeoPoint = DocumentModel.GeoPoint

/// The error every Hearth call throws: one of Firestore's canonical codes and a message.
///
/// ```swift
/// do { try await ref.updateData(["n": 1]) }
/// catch let error as FirestoreError where error.code == .notFound { ... }
/// ```
public typealias FirestoreError = DocumentModel.FirestoreError

/// Firestore's status codes (`.notFound`, `.permissionDenied`, `.aborted`, ...).
public typealias FirestoreErrorCode = DocumentModel.FirestoreError.Code

extension DocumentModel.Timestamp {
    /// The current time, as `Timestamp()` gives in the Firebase SDK.
    public init() {
        self.init(date: Date())
    }
}
