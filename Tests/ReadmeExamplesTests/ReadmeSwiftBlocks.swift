import Foundation

/// The Swift examples that must compile in every concurrency context: each ```swift block of
/// `README.md`, verbatim, and each snippet in `Tests/ReadmeExamplesTests/Snippets`.
///
/// For every example it writes an executable target that runs it in top-level code
/// (`main.swift`), in a nonisolated async function and in an actor's method (by its first
/// argument), and two test files that hold it in a `@MainActor` Swift Testing test and a
/// `@MainActor` XCTest method. Each example gets files of its own, with only its own imports:
/// the README's blocks cannot share a file (both declare `db`, and `DocumentModel.FieldPath`
/// and `Hearth.FieldPath` would clash).
///
/// `scripts/readme-swift-blocks` compiles this file with a small driver to write the files;
/// `ReadmeDriftTests` regenerates them in memory and fails when the committed ones differ.
enum ReadmeSwiftBlocks {
    /// One example: its imports (hoisted to the top of each file) and the rest of its lines.
    struct Example: Sendable, Equatable {
        /// The executable target: `ReadmeExample1` for the README's first block.
        var target: String
        /// The file the example comes from, relative to the package root.
        var file: String
        /// The example's number among the file's ```swift blocks (1 for a snippet file).
        var block: Int
        /// The line of `file` that `body` starts at (for messages only: the generated files do
        /// not name it, so editing the README's prose leaves them current).
        var line: Int
        /// The `import` lines, in order.
        var imports: [String]
        /// The lines, verbatim, from the first one that is not an import or blank to the last
        /// that is not blank (import lines in between are left blank, so lines keep their numbers).
        var body: [String]
        /// The constants and variables the example declares at its top level: the wrappers
        /// use them after it (`_ = (db, alice)`), since a local that is never read is a warning
        /// where a top-level global is not.
        var names: [String]
        /// README blocks work in the current directory (`.hearth/app`, `rules/...`): in the
        /// test process they are compiled only, and run by `ReadmeRunTests` in a fresh folder.
        var usesWorkingDirectory: Bool

        /// `README.md block 1`, or the snippet's path: what the generated files name.
        var origin: String { file == readmePath ? "\(file) block \(block)" : file }
    }

    static let readmePath = "README.md"
    static let snippetsDirectory = "Tests/ReadmeExamplesTests/Snippets"
    static let generatedTestsDirectory = "Tests/ReadmeExamplesTests/Generated"
    static let script = "scripts/readme-swift-blocks"

    // MARK: - Extraction

    /// The ```swift blocks of a Markdown text: fences at the start of a line.
    static func readmeExamples(_ markdown: String) -> [Example] {
        let lines = markdown.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            guard trimmedTrailing(lines[index]) == "```swift" else {
                index += 1
                continue
            }
            let start = index + 1
            var end = start
            while end < lines.count, trimmedTrailing(lines[end]) != "```" { end += 1 }
            examples.append(
                example(
                    target: "ReadmeExample\(examples.count + 1)", file: readmePath, block: examples.count + 1,
                    firstLine: start + 1,
                    lines: Array(lines[start..<min(end, lines.count)]), usesWorkingDirectory: true))
            index = end + 1
        }
        return examples
    }

    /// A snippet file: all of it is the example.
    static func snippetExample(fileName: String, text: String) -> Example {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let name = fileName.hasSuffix(".swift") ? String(fileName.dropLast(6)) : fileName
        return example(
            target: "\(name)Example", file: "\(snippetsDirectory)/\(fileName)", block: 1, firstLine: 1,
            lines: lines, usesWorkingDirectory: false)
    }

    private static func example(
        target: String, file: String, block: Int, firstLine: Int, lines: [String], usesWorkingDirectory: Bool
    ) -> Example {
        var imports: [String] = []
        var body = lines.map { line -> String in
            guard isImport(line) else { return line }
            imports.append(trimmedTrailing(line))
            return ""
        }
        var line = firstLine
        while let first = body.first, isBlank(first) {
            body.removeFirst()
            line += 1
        }
        while let last = body.last, isBlank(last) { body.removeLast() }
        return Example(
            target: target, file: file, block: block, line: line, imports: imports, body: body,
            names: body.compactMap(declaredName), usesWorkingDirectory: usesWorkingDirectory)
    }

    /// `import X`, `@preconcurrency import X`, `@testable import X`, `import struct X.Y`.
    private static func isImport(_ line: String) -> Bool {
        var words = line.split(separator: " ", omittingEmptySubsequences: true)
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        return words.first == "import" && !line.hasPrefix(" ")
    }

    /// The name a top-level `let name` / `var name` declares (not tuples or `_`).
    private static func declaredName(_ line: String) -> String? {
        for keyword in ["let ", "var "] where line.hasPrefix(keyword) {
            let rest = line.dropFirst(keyword.count)
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard let first = name.first, first.isLetter || (first == "_" && name.count > 1) else { return nil }
            return String(name)
        }
        return nil
    }

    private static func isBlank(_ line: String) -> Bool { line.allSatisfy(\.isWhitespace) }

    private static func trimmedTrailing(_ line: String) -> String {
        String(line.reversed().drop(while: \.isWhitespace).reversed())
    }

    // MARK: - The package's examples and files

    /// The README's blocks, then the snippets in file-name order.
    static func examples(packageRoot: URL) throws -> [Example] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent(readmePath), encoding: .utf8)
        let snippets = packageRoot.appendingPathComponent(snippetsDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: snippets.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        return try readmeExamples(readme)
            + names.map { name in
                snippetExample(
                    fileName: name,
                    text: try String(contentsOf: snippets.appendingPathComponent(name), encoding: .utf8))
            }
    }

    /// Every generated file (path relative to the package root, and contents).
    static func files(for examples: [Example]) -> [(path: String, contents: String)] {
        examples.flatMap { example in
            [
                ("Sources/\(example.target)/main.swift", mainFile(example)),
                ("Sources/\(example.target)/Contexts.swift", contextsFile(example)),
                ("Sources/\(example.target)/ExampleContext.swift", exampleContextFile(example)),
                ("\(generatedTestsDirectory)/\(example.target)+Testing.swift", testingFile(example)),
                ("\(generatedTestsDirectory)/\(example.target)+XCTest.swift", xctestFile(example)),
            ]
        }
    }

    /// The generated files that differ from `expected` or are missing, and the files of
    /// `generatedTestsDirectory` that are no longer generated.
    static func staleFiles(packageRoot: URL, expected: [(path: String, contents: String)]) -> [String] {
        var stale = expected.filter { file in
            let current = try? String(contentsOf: packageRoot.appendingPathComponent(file.path), encoding: .utf8)
            return current != file.contents
        }.map(\.path)
        let directory = packageRoot.appendingPathComponent(generatedTestsDirectory)
        let present = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let paths = Set(expected.map(\.path))
        stale += present.sorted().map { "\(generatedTestsDirectory)/\($0)" }.filter { !paths.contains($0) }
        return stale
    }

    /// Writes the files that changed and deletes generated test files no longer generated.
    ///
    /// - Returns: the paths written or deleted.
    static func write(packageRoot: URL) throws -> [String] {
        let expected = files(for: try examples(packageRoot: packageRoot))
        let stale = staleFiles(packageRoot: packageRoot, expected: expected)
        let contents = Dictionary(expected.map { ($0.path, $0.contents) }, uniquingKeysWith: { first, _ in first })
        for path in stale {
            let url = packageRoot.appendingPathComponent(path)
            if let text = contents[path] {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url, options: .atomic)
            } else {
                try FileManager.default.removeItem(at: url)
            }
        }
        return stale
    }

    // MARK: - Rendering

    /// Why a README block is not run in the test process.
    private static let compiledOnly =
        "compiled only: it works in the current directory; ReadmeRunTests runs it in a fresh one"

    private static func header(_ example: Example) -> String {
        """
        // Generated by \(script) from \(example.origin): do not edit.
        // Change \(example.file) and run the script; ReadmeDriftTests fails while this file is stale.


        """
    }

    private static func imports(_ example: Example, adding extra: [String] = []) -> String {
        (example.imports + extra).map { "\($0)\n" }.joined()
    }

    /// The example's lines, verbatim at column 0 (so multi-line strings keep their meaning),
    /// between two marker comments; then a use of each declared name, indented by `indent`.
    private static func body(_ example: Example, indent: String) -> String {
        var text = "// \(example.origin), verbatim:\n"
        text += example.body.map { "\($0)\n" }.joined()
        text += "// End of \(example.origin).\n"
        // `_ = (a, b, c)`, in lines of up to 100 characters.
        var names = example.names[...]
        while !names.isEmpty {
            var line = [names.removeFirst()]
            while let next = names.first, (line + [next]).joined(separator: ", ").count <= 100 - indent.count {
                line.append(names.removeFirst())
            }
            text += "\(indent)_ = (\(line.joined(separator: ", ")))\n"
        }
        return text
    }

    private static func mainFile(_ example: Example) -> String {
        """
        \(header(example))\
        // In top-level code, and in the contexts of Contexts.swift:
        // `\(example.target) [top-level | nonisolated | actor]`.
        \(imports(example))
        switch ExampleContext.fromArguments() {
        case .topLevel:
            do {
        \(body(example, indent: "        "))\
            } catch {
                ExampleContext.fail(error)
            }
        case .nonisolatedFunction:
            do { try await nonisolatedFunction() } catch { ExampleContext.fail(error) }
        case .actorMethod:
            do { try await ExampleActor().method() } catch { ExampleContext.fail(error) }
        }

        """
    }

    private static func contextsFile(_ example: Example) -> String {
        """
        \(header(example))\
        \(imports(example))
        /// \(example.origin) in a nonisolated async function.
        func nonisolatedFunction() async throws {
        \(body(example, indent: "    "))\
        }

        /// \(example.origin) in an actor's method.
        actor ExampleActor {
            func method() async throws {
        \(body(example, indent: "        "))\
            }
        }

        """
    }

    private static func exampleContextFile(_ example: Example) -> String {
        """
        \(header(example))\
        import Foundation

        /// Where `main.swift` runs the example, from the first argument (`top-level` by default).
        enum ExampleContext: String, CaseIterable {
            case topLevel = "top-level"
            case nonisolatedFunction = "nonisolated"
            case actorMethod = "actor"

            static let origin = "\(example.origin)"

            static func fromArguments() -> ExampleContext {
                let arguments = CommandLine.arguments.dropFirst()
                guard arguments.count <= 1, let context = ExampleContext(rawValue: arguments.first ?? "top-level")
                else {
                    let choices = allCases.map(\\.rawValue).joined(separator: " | ")
                    FileHandle.standardError.write(Data("Usage: \(example.target) [\\(choices)]\\n".utf8))
                    exit(2)
                }
                return context
            }

            /// Reports the example's error on standard error and exits with status 1.
            static func fail(_ error: any Error) -> Never {
                let context = fromArguments().rawValue
                FileHandle.standardError.write(Data("error: \\(origin) (\\(context)): \\(error)\\n".utf8))
                exit(1)
            }
        }

        """
    }

    /// The example in a `@MainActor` Swift Testing test, which runs it; or, for an example that
    /// works in the current directory (the README's blocks, which `ReadmeRunTests` runs in a
    /// fresh one), in a `@MainActor` function that is compiled under the same isolation
    /// checking but not run.
    private static func testingFile(_ example: Example) -> String {
        let name = example.target.prefix(1).lowercased() + example.target.dropFirst()
        let declaration = example.usesWorkingDirectory
            ? "/// \(compiledOnly)\n@MainActor func \(name)OnMainActor() async throws {"
            : "@MainActor @Test(\"\(example.origin) in a @MainActor test\")\nfunc \(name)OnMainActor() async throws {"
        return """
            \(header(example))\
            \(imports(example, adding: ["import Testing"]))
            /// \(example.origin) in a `@MainActor` Swift Testing test.
            \(declaration)
            \(body(example, indent: "    "))\
            }

            """
    }

    /// The example in a `@MainActor` XCTest method: a test that runs it, or, for an example
    /// that works in the current directory, a method without the `test` prefix, compiled but
    /// not run.
    private static func xctestFile(_ example: Example) -> String {
        let method = example.usesWorkingDirectory ? "compiledOnlyOnMainActor" : "testOnMainActor"
        let note = example.usesWorkingDirectory ? "    /// \(compiledOnly)\n" : ""
        return """
            \(header(example))\
            \(imports(example, adding: ["import XCTest"]))
            final class \(example.target)XCTests: XCTestCase {
                /// \(example.origin) in a `@MainActor` XCTest method.
            \(note)\
                @MainActor func \(method)() async throws {
            \(body(example, indent: "        "))\
                }
            }

            """
    }
}
