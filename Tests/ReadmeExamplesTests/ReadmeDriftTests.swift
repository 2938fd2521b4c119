import Foundation
import Testing

/// The generated example files are those `scripts/readme-swift-blocks` would write from the
/// README and the snippets as they are now, so a change to a README block cannot go untested.
@Suite("README Swift blocks: generated files")
struct ReadmeDriftTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("The generated files match README.md and the snippets")
    func generatedFilesAreCurrent() throws {
        let examples = try ReadmeSwiftBlocks.examples(packageRoot: Self.packageRoot)
        #expect(examples.contains { $0.file == ReadmeSwiftBlocks.readmePath }, "README.md has no ```swift block")
        let expected = ReadmeSwiftBlocks.files(for: examples)
        for path in ReadmeSwiftBlocks.staleFiles(packageRoot: Self.packageRoot, expected: expected) {
            let generated = expected.first { $0.path == path }?.contents
            let current = try? String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
            Issue.record(
                """
                \(path) is stale (\(Self.firstDifference(current, generated))): run \
                \(ReadmeSwiftBlocks.script) and commit what it writes
                """)
        }
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for example in examples {
            #expect(
                manifest.contains("name: \"\(example.target)\""),
                "Package.swift has no .executableTarget(name: \"\(example.target)\", ...) for \(example.origin)")
        }
    }

    @Test("Blocks are extracted verbatim, imports hoisted, top-level names collected")
    func extraction() {
        let markdown = """
            Prose.

            ```swift
            import Hearth

            let db = try Firestore.embedded()   // a comment
            var count = 0
            let (a, b) = (1, 2)
            let text = \"\"\"
                indented
                \"\"\"
            ```

            ```sh
            let notSwift = 1
            ```

            ```swift
            import DocumentModel
            @preconcurrency import DocumentStore
            print(1)
              let nested = 2
            ```
            """
        let examples = ReadmeSwiftBlocks.readmeExamples(markdown)
        #expect(examples.count == 2)
        #expect(examples[0].target == "ReadmeExample1")
        #expect(examples[0].origin == "README.md block 1")
        #expect(examples[0].line == 6)
        #expect(examples[0].imports == ["import Hearth"])
        #expect(
            examples[0].body == [
                "let db = try Firestore.embedded()   // a comment", "var count = 0", "let (a, b) = (1, 2)",
                "let text = \"\"\"", "    indented", "    \"\"\"",
            ])
        #expect(examples[0].names == ["db", "count", "text"])
        #expect(examples[0].usesWorkingDirectory)
        #expect(examples[1].imports == ["import DocumentModel", "@preconcurrency import DocumentStore"])
        #expect(examples[1].body == ["print(1)", "  let nested = 2"])
        #expect(examples[1].names == [])
        #expect(examples[1].line == 21)
    }

    @Test("A snippet file is one example named after it, run in the test process too")
    func snippet() {
        let example = ReadmeSwiftBlocks.snippetExample(
            fileName: "Listeners.swift", text: "import Hearth\n\nlet x = 1\n")
        #expect(example.target == "ListenersExample")
        #expect(example.origin == "Tests/ReadmeExamplesTests/Snippets/Listeners.swift")
        #expect(example.body == ["let x = 1"])
        #expect(example.names == ["x"])
        #expect(!example.usesWorkingDirectory)
    }

    /// `line 12: "let a" here, "let b" generated`: the first line that differs.
    static func firstDifference(_ current: String?, _ generated: String?) -> String {
        guard let current else { return "missing" }
        guard let generated else { return "no longer generated" }
        let old = current.components(separatedBy: "\n")
        let new = generated.components(separatedBy: "\n")
        for index in 0..<max(old.count, new.count) {
            let left = index < old.count ? old[index] : "<end of file>"
            let right = index < new.count ? new[index] : "<end of file>"
            if left != right { return "line \(index + 1): \"\(left)\" here, \"\(right)\" generated" }
        }
        return "identical lines"
    }
}
