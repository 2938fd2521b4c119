public import DocumentModel
import Foundation

/// One page of a collection's documents.
public struct DocumentListPage: Sendable, Hashable {
    /// The documents, and the missing ones when asked for, in name order.
    public var documents: [ListedDocument]
    /// Pass it back for the next page; `nil` on the last page.
    public var nextPageToken: String?
    /// The time the listing read the database at.
    public var readTime: Timestamp
}

/// One page of the collection ids under a document or the root.
public struct CollectionIDPage: Sendable, Hashable {
    /// The ids, in Firestore's (UTF-8 byte) order.
    public var collectionIDs: [String]
    /// Pass it back for the next page; `nil` on the last page.
    public var nextPageToken: String?
    /// The time the listing read the database at.
    public var readTime: Timestamp
}

/// Page tokens: the encoded path (or id) of the last entry returned, in base64 behind a format
/// byte. A token is opaque to clients; a token this version did not write is refused.
enum PageToken {
    private static let format: UInt8 = 1

    static func make(_ position: [UInt8]) -> String {
        Data([format] + position).base64EncodedString()
    }

    /// The position a token names; it must start with `prefix` (the listing's scope).
    static func position(_ token: String, under prefix: [UInt8]) throws -> [UInt8] {
        guard let data = Data(base64Encoded: token), data.first == format else { throw invalid }
        let position = Array(data.dropFirst())
        guard position.starts(with: prefix), position.count > prefix.count else { throw invalid }
        return position
    }

    private static var invalid: FirestoreError { FirestoreError.invalidArgument("invalid page token") }
}

/// Listing's checks of a parent and a page size, with Google's emulator's messages.
enum ListingValidator {
    /// The parent of a listing must be the root or a document.
    static func validateParent(_ parent: ResourcePath, _ databaseID: DatabaseID) throws {
        guard parent.segments.isEmpty || parent.isDocument else {
            let name = "\(databaseID.resourceName)/documents/\(parent)"
            throw FirestoreError.invalidArgument("Document parent name \"\(name)\" lacks \"/\" at index \(name.utf16.count).")
        }
    }

    static func validatePageSize(_ pageSize: Int) throws {
        guard pageSize >= 0 else { throw FirestoreError.invalidArgument("Page size must be nonnegative.") }
    }
}
