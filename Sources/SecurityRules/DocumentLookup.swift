public import DocumentModel

/// How rules read documents: `get()` and `exists()` see the database before the request,
/// `getAfter()` and `existsAfter()` see it as it would be after the whole request (batch,
/// transaction) commits.
///
/// A thrown error makes the function call an evaluation error, as a failed read does in Firestore.
public protocol DocumentLookup {
    /// The document as it is before the request, or `nil` if it does not exist.
    func document(_ name: DocumentName) throws -> Document?
    /// The document as it would be after the request commits, or `nil` if it would not exist.
    func documentAfter(_ name: DocumentName) throws -> Document?
}

/// A lookup with no documents: every `get()` fails and every `exists()` is false.
public struct NoDocuments: DocumentLookup {
    /// Creates the empty lookup.
    public init() {}

    public func document(_ name: DocumentName) throws -> Document? { nil }
    public func documentAfter(_ name: DocumentName) throws -> Document? { nil }
}

/// A lookup over documents held in memory: one set before the request and one after it.
///
/// ```swift
/// let lookup = InMemoryDocuments(before: [profile], after: [profile, newPost])
/// ```
public struct InMemoryDocuments: DocumentLookup, Sendable {
    /// The documents before the request, by name.
    public var before: [DocumentName: Document]
    /// The documents after the request, by name.
    public var after: [DocumentName: Document]

    /// Creates a lookup; `after` defaults to `before`.
    public init(before: [Document] = [], after: [Document]? = nil) {
        self.before = Dictionary(before.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        self.after = Dictionary((after ?? before).map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    }

    public func document(_ name: DocumentName) throws -> Document? { before[name] }
    public func documentAfter(_ name: DocumentName) throws -> Document? { after[name] }
}
