import ArgumentParser
import DocumentModel
import DocumentStore

/// `hearth check`: reads and verifies every key of a data folder and reports what is damaged.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Read and verify every key of the data folder; exit with status 1 if anything is damaged.",
        discussion: "The server must not be running on the folder. `hearth repair` recovers a damaged folder."
    )

    @OptionGroup var options: DataFolderOptions

    func run() throws {
        let folder = try options.folder()
        let report: StoreCheckReport
        do {
            report = try DocumentStore.check(path: folder)
        } catch let error as FirestoreError {
            throw CommandFailure(error.message)
        }
        print("Data folder '\(folder)': \(report.keysRead) keys read, \(report.documentsRead) live documents")
        guard report.isDamaged else {
            print("No damage found")
            return
        }
        for line in report.damage { print("Damaged: \(line)") }
        throw CommandFailure(
            "Data folder '\(folder)' is damaged (\(report.damage.count) problem(s)); `hearth repair` recovers what is readable")
    }
}
