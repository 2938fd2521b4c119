// The model types the client API shares with the rest of Hearth, re-exported one by one (not the
// whole of DocumentModel, whose `Query` and `FieldPath` are not the client's), so that an app
// importing only Hearth sees them and their members:
// - `Timestamp`: a point in time with nanosecond precision, as Firestore stores it
//   (`Timestamp(date:)`, `dateValue`, `seconds`, `nanoseconds`);
// - `GeoPoint`: a latitude and longitude in degrees (`try GeoPoint(latitude: 48.85, longitude: 2.35)`);
// - `FirestoreError`: the error every Hearth call throws, one of Firestore's canonical codes and a
//   message:
//
//   ```swift
//   do { try await ref.updateData(["n": 1]) }
//   catch let error as FirestoreError where error.code == .notFound { ... }
//   ```
@_exported public import struct DocumentModel.FirestoreError
@_exported public import struct DocumentModel.GeoPoint
@_exported public import struct DocumentModel.Timestamp
public import DocumentModel
import Foundation

/// Firestore's status codes (`.notFound`, `.permissionDenied`, `.aborted`, ...).
public typealias FirestoreErrorCode = DocumentModel.FirestoreError.Code

extension DocumentModel.Timestamp {
    /// The current time, as `Timestamp()` gives in the Firebase SDK.
    public init() {
        self.init(date: Date())
    }
}
