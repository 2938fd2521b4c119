package import DocumentModel

/// What the local cache knows about one document from the server: its contents, or that it does
/// not exist, as of `readTime`.
package struct RemoteEntry: Sendable, Equatable {
    /// The document as the server last sent it; `nil`: known not to exist at `readTime`.
    package var document: Document?
    /// The snapshot version at which the server reported this state.
    package var readTime: Timestamp

    package init(document: Document?, readTime: Timestamp) {
        self.document = document
        self.readTime = readTime
    }
}
