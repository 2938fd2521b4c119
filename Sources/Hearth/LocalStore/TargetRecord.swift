package import DocumentModel

/// What the local cache keeps about one listen target (a query or document listened to): where
/// to resume the server's stream and what the target held there.
///
/// The token and the members go together: a stream resumed with the token gets only what
/// changed since, so the documents the target held at the token (the members, whose contents
/// the cache holds) are the rest of its state. Any recorded pair is a valid place to resume
/// from, however old, while the server still knows the token.
package struct TargetRecord: Sendable, Equatable {
    /// The server's resume token; empty: none.
    package var resumeToken: [UInt8]
    /// The snapshot version the cached results of the target are consistent with.
    package var snapshotVersion: Timestamp
    /// The documents in the target on the server at `snapshotVersion` (pending writes aside).
    package var members: [DocumentName]

    package init(resumeToken: [UInt8], snapshotVersion: Timestamp, members: [DocumentName] = []) {
        self.resumeToken = resumeToken
        self.snapshotVersion = snapshotVersion
        self.members = members
    }
}
