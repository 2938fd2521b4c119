import DocumentModel
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
