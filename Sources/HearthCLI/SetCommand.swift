import ArgumentParser
import DocumentModel
import DocumentStore
import Foundation

/// `hearth set <document-path> <json>`: writes a document from Firestore REST JSON.
struct SetCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Write a document from Firestore REST JSON and print its update time.",
        discussion: """
            The JSON is a fields object, {"name": {"stringValue": "Alice"}, "age": {"integerValue": "30"}}, \
            or a document object as 'hearth get' prints it, {"fields": {...}}, whose name and times are ignored.
            """
    )

    @Argument(help: "The document's path, such as users/alice.")
    var documentPath: String

    @Argument(help: "The fields as REST JSON, or - to read them from standard input.")
    var json: String

    @Flag(help: "Replace only the given top-level fields and keep the others.")
    var merge = false

    @OptionGroup var options: StoreOptions

    func validate() throws {
        try UserInput.check {
            _ = try UserInput.documentPath(documentPath)
            if json != "-" { _ = try UserInput.fields(fromJSON: Array(json.utf8)) }
        }
    }

    func run(on store: DocumentStore, at location: StoreLocation) throws {
        let name = try DocumentName(location.databaseID, UserInput.documentPath(documentPath))
        let utf8 = json == "-" ? [UInt8](FileHandle.standardInput.readDataToEndOfFile()) : Array(json.utf8)
        let fields = try UserInput.fields(fromJSON: utf8)
        let write: Write =
            merge
            ? .setMerge(name, fields: fields, mask: fields.keys.map { FieldPath(uncheckedSegment: $0) })
            : .set(name, fields: fields)
        let result = try store.commit([write])
        print(result.writeResults[0].updateTime ?? result.commitTime)
    }
}
