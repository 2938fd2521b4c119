import Foundation
import Testing

/// The examples' executables, run in each context they hold, each run in a fresh folder: the
/// README's blocks work in the current directory (`.hearth/app`, `.hearth/data`), and find
/// `rules/firestore.rules` through the package root of the folder, which is inside the package.
@Suite("README Swift blocks: runs")
struct ReadmeRunTests {
    /// The contexts of each example's `main.swift` (its first argument).
    static let contexts = ["top-level", "nonisolated", "actor"]

    static func examples() throws -> [String] {
        try ReadmeSwiftBlocks.examples(packageRoot: ReadmeDriftTests.packageRoot).map(\.target)
    }

    @Test(
        "Each example runs without error in top-level code, a nonisolated function and an actor's method",
        .timeLimit(.minutes(2)), arguments: try examples(), contexts)
    func runs(_ example: String, _ context: String) async throws {
        let folder = ReadmeDriftTests.packageRoot.appendingPathComponent(".build/readme-examples/\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Self.run(example, [context], in: folder)
        #expect(result.status == 0, "\(example) \(context) failed: \(result.output)")
        if example == "ReadmeExample1" {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".hearth/app").path))
        }
        if example == "ReadmeExample2" {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".hearth/data").path))
        }
    }

    @Test("Outside any package the README's rules file is a clear NOT_FOUND, without a crash", .timeLimit(.minutes(2)))
    func missingRulesFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-readme-\(UUID().uuidString)")
            .standardizedFileURL
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Self.run("ReadmeExample1", [], in: folder)
        #expect(result.status == 1)
        #expect(
            result.output
                == """
                error: README.md block 1 (top-level): NOT_FOUND: Rules file 'rules/firestore.rules' not found; \
                tried \(folder.path)/rules/firestore.rules (working directory) (no Package.swift in \
                '\(folder.path)' or above it: no package root to try)

                """)
    }

    /// Runs the built `example` with `arguments` in `folder` (terminated if the test is
    /// cancelled, e.g. by its time limit).
    ///
    /// - Returns: its exit status and what it wrote on standard output and error.
    static func run(_ example: String, _ arguments: [String], in folder: URL) async throws
        -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = try executable(example)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = folder.appendingPathComponent(".output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        let status = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            process.terminate()
        }
        let text = try String(contentsOf: output, encoding: .utf8)
        try FileManager.default.removeItem(at: output)
        return (status, text)
    }

    /// The built executable, next to the test bundle in the build products directory (for any
    /// `--scratch-path`); `swift build --build-tests` builds it.
    static func executable(_ name: String) throws -> URL {
        var directories = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        let candidates = directories.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "\(name) not found in \(candidates.map(\.path)): build it with swift build --build-tests"
                ])
        }
        return found
    }
}
