import ArgumentParser
import DocumentModel
import DocumentStore
import FirestoreWire

/// `hearth get <document-path>`: prints a document as Firestore REST JSON.
struct GetCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a document as Firestore REST JSON."
    )

    @Argument(help: "The document's path, such as users/alice.")
    var documentPath: String

    @OptionGroup var options: StoreOptions

    func validate() throws {
        try UserInput.check { _ = try UserInput.documentPath(documentPath) }
    }

    func run(on store: DocumentStore, at location: StoreLocation) throws {
        let name = try DocumentName(location.databaseID, UserInput.documentPath(documentPath))
        guard let document = try store.document(name) else {
            throw CommandFailure("Document not found: \(documentPath)")
        }
        print(RESTJSON.encode(document).serialized(pretty: true))
    }
}
