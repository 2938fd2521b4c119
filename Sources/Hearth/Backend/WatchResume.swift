package import DocumentModel

/// Where a watch picks a target up again: a resume token the server gave earlier, and the
/// documents the target held there (from the local cache), so that a stream that sends only
/// what changed since still yields whole snapshots.
package struct WatchResume: Sendable {
    /// The server's resume token; never empty.
    package var resumeToken: [UInt8]
    /// The target's documents at the token.
    package var documents: [Document]

    package init(resumeToken: [UInt8], documents: [Document]) {
        self.resumeToken = resumeToken
        self.documents = documents
    }
}
