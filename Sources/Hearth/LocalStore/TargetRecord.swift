import DocumentModel

/// What the local cache keeps about one listen target (a query or document listened to): where
/// to resume the server's stream and how current the cached results are.
package struct TargetRecord: Sendable, Equatable {
    /// The server's resume token; empty: none.
    package var resumeToken: [UInt8]
    /// The snapshot version the cached results of the target are consistent with.
    package var snapshotVersion: Timestamp

    package init(resumeToken: [UInt8], snapshotVersion: Timestamp) {
        self.resumeToken = resumeToken
        self.snapshotVersion = snapshotVersion
    }
}
