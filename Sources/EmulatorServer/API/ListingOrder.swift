import DocumentModel
import Foundation

/// The `order_by` of a `ListDocuments` request: comma-separated clauses `field [asc|desc]`, as
/// Google's emulator reads them (`"a desc, __name__"`). Ordering by anything other than the
/// name alone turns the listing into a query over the collection, so documents without the
/// field are left out, as there.
struct ListingOrder: Equatable {
    let orders: [Order]

    /// The orders of `text`; `nil` for none or the name ascending (a plain listing).
    ///
    /// - Throws: `FirestoreError` `.invalidArgument` naming a clause that is not `field`,
    ///   `field asc` or `field desc`, or whose field path is invalid.
    static func parse(_ text: String) throws -> ListingOrder? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        let orders = try trimmed.split(separator: ",", omittingEmptySubsequences: false).map { clause in
            let words = clause.split(whereSeparator: \.isWhitespace)
            let invalid = FirestoreError.invalidArgument("Invalid order by clause \"\(clause.trimmingCharacters(in: .whitespaces))\".")
            guard (1...2).contains(words.count), let field = try? FieldPath(String(words[0])) else { throw invalid }
            guard words.count == 2 else { return Order(field, .ascending) }
            switch words[1].lowercased() {
            case "asc": return Order(field, .ascending)
            case "desc": return Order(field, .descending)
            default: throw invalid
            }
        }
        if orders == [Order(.documentName, .ascending)] { return nil }
        return ListingOrder(orders: orders)
    }

    /// The token of the page after `offset` documents, for the listing ordered by `orderBy`.
    static func pageToken(offset: Int, orderBy: String) -> String {
        Data("order:\(offset):\(orderBy)".utf8).base64EncodedString()
    }

    /// How many documents the pages before `token` held.
    ///
    /// - Throws: `FirestoreError` `.invalidArgument` for a token not made by `pageToken` for the
    ///   same `order_by`.
    static func offset(of token: String, orderBy: String) throws -> Int {
        guard let data = Data(base64Encoded: token), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("order:")
        else { throw FirestoreError.invalidArgument("Invalid page token for a listing ordered by '\(orderBy)'") }
        let parts = text.dropFirst("order:".count).split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let offset = Int(parts[0]), offset >= 0, parts[1] == orderBy else {
            throw FirestoreError.invalidArgument("Invalid page token for a listing ordered by '\(orderBy)'")
        }
        return offset
    }
}
