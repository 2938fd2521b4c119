import DocumentModel
import Foundation
import Hearth

/// The security rules a `RulesTestEnvironment` runs with: a rules file, or rules as text.
///
/// ```swift
/// .file("rules/firestore.rules")
/// .source("rules_version = '2'; service cloud.firestore { ... }")
/// ```
public struct RulesSource: Sendable, Hashable {
    /// The rules text.
    public let text: String
    /// The name diagnostics and coverage reports use (the path, for a file).
    public let fileName: String

    /// Rules given as text.
    public static func source(_ text: String, fileName: String = "firestore.rules") -> RulesSource {
        RulesSource(text: text, fileName: fileName)
    }

    /// The rules file at `path`: absolute, or relative to the working directory, else to the
    /// root of the Swift package the working directory is in (the nearest directory above it
    /// holding a `Package.swift`). So `.file("rules/firestore.rules")` finds the package's
    /// rules from a test run in the package or in any folder inside it.
    ///
    /// - Throws: `FirestoreError` `.notFound` naming the path and every place it was looked
    ///   for; `.invalidArgument` when the file cannot be read as UTF-8 text.
    public static func file(_ path: String) throws -> RulesSource {
        try file(path, workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// `file(_:)` with `workingDirectory` standing for the current directory.
    static func file(_ path: String, workingDirectory: String) throws -> RulesSource {
        let places = RulesFileLocation.candidates(for: path, workingDirectory: workingDirectory)
        guard let found = places.first(where: { RulesFileLocation.isFile($0.url) }) else {
            throw RulesFileLocation.notFound(path, places: places, workingDirectory: workingDirectory)
        }
        let text: String
        do {
            text = try String(contentsOf: found.url, encoding: .utf8)
        } catch {
            throw FirestoreError(
                .invalidArgument, "Rules file '\(path)' (\(found.url.path)) could not be read as UTF-8 text: \(error)")
        }
        return RulesSource(text: text, fileName: path)
    }
}

/// Where `RulesSource.file(_:)` looks for a rules file.
enum RulesFileLocation {
    struct Place {
        /// The file looked for.
        var url: URL
        /// What the directory it was looked for in is, for the error message.
        var role: String
    }

    /// The places to look for `path`: itself when absolute; else under the working directory,
    /// then under the enclosing package's root (when there is one, and it is another directory).
    static func candidates(for path: String, workingDirectory: String) -> [Place] {
        if path.hasPrefix("/") { return [Place(url: URL(fileURLWithPath: path), role: "absolute path")] }
        let directory = URL(fileURLWithPath: workingDirectory, isDirectory: true).standardizedFileURL
        var places = [Place(url: directory.appendingPathComponent(path), role: "working directory")]
        if let root = packageRoot(containing: directory), root.path != directory.path {
            places.append(Place(url: root.appendingPathComponent(path), role: "package root"))
        }
        return places
    }

    /// The nearest directory at or above `directory` that holds a `Package.swift`.
    static func packageRoot(containing directory: URL) -> URL? {
        var current = directory
        while true {
            if isFile(current.appendingPathComponent("Package.swift")) { return current }
            let parent = current.deletingLastPathComponent().standardizedFileURL
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    static func isFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// `NOT_FOUND: Rules file 'rules/firestore.rules' not found; tried /a/rules/firestore.rules
    /// (working directory), /b/rules/firestore.rules (package root)`.
    static func notFound(_ path: String, places: [Place], workingDirectory: String) -> FirestoreError {
        let tried = places.map { "\($0.url.path) (\($0.role))" }.joined(separator: ", ")
        var message = "Rules file '\(path)' not found; tried \(tried)"
        let directory = URL(fileURLWithPath: workingDirectory, isDirectory: true).standardizedFileURL
        if !path.hasPrefix("/") && packageRoot(containing: directory) == nil {
            message += " (no Package.swift in '\(directory.path)' or above it: no package root to try)"
        }
        return FirestoreError(.notFound, message)
    }
}
