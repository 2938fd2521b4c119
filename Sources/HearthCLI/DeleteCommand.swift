import ArgumentParser
import DocumentModel
import DocumentStore

/// `hearth delete <document-path>`: deletes a document (a missing one is no error).
struct DeleteCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a document; its subcollections stay."
    )

    @Argument(help: "The document's path, such as users/alice.")
    var documentPath: String

    @OptionGroup var options: StoreOptions

    func validate() throws {
        try UserInput.check { _ = try UserInput.documentPath(documentPath) }
    }

    func run(on store: DocumentStore, at location: StoreLocation) throws {
        try store.commit([.delete(DocumentName(location.databaseID, UserInput.documentPath(documentPath)))])
    }
}
