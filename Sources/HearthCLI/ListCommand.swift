import ArgumentParser
import DocumentModel
import DocumentStore
import FirestoreWire

/// `hearth list <collection-path>`: prints the documents of a collection, one per line.
struct ListCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the documents directly in a collection, one per line: path and compact JSON fields."
    )

    /// How many documents are read at a time.
    static let pageSize = 500

    @Argument(help: "The collection's path, such as users or users/alice/posts.")
    var collectionPath: String

    @Option(help: "The most documents to print.")
    var limit: Int?

    @Flag(help: "Print only the documents' paths.")
    var namesOnly = false

    @OptionGroup var options: StoreOptions

    func validate() throws {
        try UserInput.check { _ = try UserInput.collectionPath(collectionPath) }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    /// Reads page by page; the pages are consistent because this process holds the folder.
    func run(on store: DocumentStore, at location: StoreLocation) throws {
        let collection = try UserInput.collectionPath(collectionPath)
        var remaining = limit ?? .max
        var last: DocumentName?
        while remaining > 0 {
            let pageLimit = min(remaining, ListCommand.pageSize)
            let page = try store.listDocuments(
                in: collection, of: location.databaseID, startAfter: last, limit: pageLimit)
            for document in page {
                if namesOnly {
                    print(document.name.path)
                } else {
                    print("\(document.name.path) \(RESTJSON.encode(fields: document.fields).serialized())")
                }
            }
            guard page.count == pageLimit else { break }
            remaining -= page.count
            last = page.last?.name
        }
    }
}
