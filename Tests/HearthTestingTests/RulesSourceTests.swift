import Foundation
import Hearth
import Testing

@testable import HearthTesting

/// `RulesSource.file`: the working directory first, then the enclosing package's root, else a
/// `NOT_FOUND` naming every place tried.
@Suite("RulesSource.file")
struct RulesSourceTests {
    static let rules = "rules_version = '2';\nservice cloud.firestore { match /databases/{db}/documents { } }\n"

    /// A fresh folder holding `files` (relative path: contents), deleted after `body`.
    func withFolder<Result>(
        _ files: [String: String], _ body: (URL) throws -> Result
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-rules-source-\(UUID().uuidString)"
        )
        .standardizedFileURL
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try body(folder)
    }

    @Test("A relative path is read from the working directory first")
    func workingDirectoryFirst() throws {
        try withFolder([
            "Package.swift": "// swift-tools-version: 6.1",
            "rules/firestore.rules": "// the package's\n" + Self.rules,
            "Sources/App/rules/firestore.rules": Self.rules,
        ]) { root in
            let source = try RulesSource.file(
                "rules/firestore.rules", workingDirectory: root.appendingPathComponent("Sources/App").path)
            #expect(source.text == Self.rules)
            #expect(source.fileName == "rules/firestore.rules")
        }
    }

    @Test("A relative path missing from the working directory is read from the package root")
    func packageRootFallback() throws {
        try withFolder([
            "Package.swift": "// swift-tools-version: 6.1",
            "rules/firestore.rules": Self.rules,
            "Tests/AppTests/Deep/.keep": "",
        ]) { root in
            let source = try RulesSource.file(
                "rules/firestore.rules", workingDirectory: root.appendingPathComponent("Tests/AppTests/Deep").path)
            #expect(source.text == Self.rules)
            // Diagnostics keep naming the file as given.
            #expect(source.fileName == "rules/firestore.rules")
        }
    }

    @Test("The nearest Package.swift is the root, not an outer one")
    func nearestPackage() throws {
        try withFolder([
            "Package.swift": "// outer",
            "rules/firestore.rules": Self.rules,
            "Inner/Package.swift": "// inner",
            "Inner/Sources/.keep": "",
        ]) { root in
            let error = try #require(throws: FirestoreError.self) {
                try RulesSource.file(
                    "rules/firestore.rules", workingDirectory: root.appendingPathComponent("Inner/Sources").path)
            }
            #expect(
                error.description
                    == "NOT_FOUND: Rules file 'rules/firestore.rules' not found; tried "
                    + "\(root.path)/Inner/Sources/rules/firestore.rules (working directory), "
                    + "\(root.path)/Inner/rules/firestore.rules (package root)")
        }
    }

    @Test("A file found nowhere is NOT_FOUND naming the path and both directories tried")
    func notFoundNamesEveryPlace() throws {
        try withFolder(["Package.swift": "// swift-tools-version: 6.1", "Sources/App/.keep": ""]) { root in
            let workingDirectory = root.appendingPathComponent("Sources/App")
            let error = try #require(throws: FirestoreError.self) {
                try RulesSource.file("rules/missing.rules", workingDirectory: workingDirectory.path)
            }
            #expect(error.code == .notFound)
            #expect(
                error.description
                    == "NOT_FOUND: Rules file 'rules/missing.rules' not found; tried "
                    + "\(workingDirectory.path)/rules/missing.rules (working directory), "
                    + "\(root.path)/rules/missing.rules (package root)")
        }
    }

    @Test("Outside any package, the error says there was no package root to try")
    func notFoundOutsidePackage() throws {
        try withFolder(["work/.keep": ""]) { folder in
            let workingDirectory = folder.appendingPathComponent("work")
            let error = try #require(throws: FirestoreError.self) {
                try RulesSource.file("rules/firestore.rules", workingDirectory: workingDirectory.path)
            }
            #expect(error.code == .notFound)
            #expect(
                error.message
                    == "Rules file 'rules/firestore.rules' not found; tried "
                    + "\(workingDirectory.path)/rules/firestore.rules (working directory) "
                    + "(no Package.swift in '\(workingDirectory.path)' or above it: no package root to try)")
        }
    }

    @Test("A missing absolute path is NOT_FOUND naming it; a directory is not a rules file")
    func absolutePaths() throws {
        try withFolder(["Package.swift": "", "rules/firestore.rules/.keep": ""]) { root in
            let missing = root.appendingPathComponent("nothing.rules").path
            let error = try #require(throws: FirestoreError.self) { try RulesSource.file(missing) }
            #expect(
                error.description == "NOT_FOUND: Rules file '\(missing)' not found; tried \(missing) (absolute path)")
            let directory = try #require(throws: FirestoreError.self) {
                try RulesSource.file("rules/firestore.rules", workingDirectory: root.path)
            }
            #expect(directory.code == .notFound)
        }
    }

    @Test("A file that is not UTF-8 text is INVALID_ARGUMENT naming it")
    func unreadable() throws {
        try withFolder(["Package.swift": ""]) { root in
            let url = root.appendingPathComponent("bad.rules")
            try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: url)
            let error = try #require(throws: FirestoreError.self) {
                try RulesSource.file("bad.rules", workingDirectory: root.path)
            }
            #expect(error.code == .invalidArgument)
            #expect(error.message.hasPrefix("Rules file 'bad.rules' (\(url.path)) could not be read as UTF-8 text"))
        }
    }

    @Test("The current directory is the default working directory")
    func currentDirectory() throws {
        // The tests run in the package (or below it), so the repository's rules are found.
        let source = try RulesSource.file("rules/firestore.rules")
        #expect(source.text.contains("service cloud.firestore"))
    }
}
