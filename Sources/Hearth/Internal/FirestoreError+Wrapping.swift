package import DocumentModel

extension FirestoreError {
    /// `error` as a `FirestoreError`: itself if it is one, else `.unknown` with its description.
    package static func wrapping(_ error: any Error) -> FirestoreError {
        error as? FirestoreError ?? FirestoreError(.unknown, String(describing: error))
    }
}
