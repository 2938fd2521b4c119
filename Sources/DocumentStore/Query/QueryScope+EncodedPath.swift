import DocumentModel
import QueryEngine

/// Scope checks on encoded paths, as index scans read them.
extension QueryScope {
    /// Whether a document of the queried collection group, whose encoded path is `path`, lies
    /// in scope: under the parent, and directly in the collection for a one-collection query.
    func contains(encodedPath path: UnsafeRawBufferPointer) throws -> Bool {
        let prefixCount = pathPrefix.count
        guard path.count > prefixCount + 2,
            pathPrefix.withUnsafeBytes({ prefix in path.prefix(prefixCount).elementsEqual(prefix) })
        else { return false }
        guard isSingleCollection else { return true }
        // Exactly one more segment (the document id), then the path's end.
        let idEnd = try EncodedKeyParsing.pathSegmentEnd(in: path, from: prefixCount)
        return idEnd + 2 == path.count
    }
}
