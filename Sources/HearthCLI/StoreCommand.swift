import ArgumentParser
import DocumentModel
import DocumentStore

/// A command that works on one database of a data folder: it opens the store, runs, and closes
/// it, and reports `FirestoreError`s as `Error: <message>` with exit code 1.
protocol StoreCommand: ParsableCommand {
    /// The data folder and database options.
    var options: StoreOptions { get }

    /// The command's work on the open store.
    func run(on store: DocumentStore, at location: StoreLocation) throws
}

extension StoreCommand {
    func run() throws {
        do {
            let location = try options.location()
            var configuration = StoreConfiguration()
            configuration.garbageCollectionIntervalSeconds = nil
            configuration.syncCommits = true
            let store = try DocumentStore(path: location.folder, configuration: configuration)
            do {
                try run(on: store, at: location)
            } catch {
                try? store.close()
                throw error
            }
            try store.close()
        } catch let error as FirestoreError {
            throw CommandFailure(error.message)
        }
    }
}
