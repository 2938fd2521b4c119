@testable import EmulatorServer
import Foundation
import Testing

/// The console's page as embedded in the binary (Docs/Console.md): `Console/Embedded/` is what
/// `scripts/embed-console` writes from `Console/Assets/`, the page stays under 300 KB, and
/// nothing in it loads from outside the machine.
@Suite struct ConsoleAssetsTests {
    /// The repository: three levels above this file (Tests/EmulatorServerTests/<file>).
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let assets = root.appendingPathComponent("Sources/EmulatorServer/Console/Assets")

    @Test func embeddedPageMatchesTheAssets() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("scripts/embed-console").path, "--check"]
        process.currentDirectoryURL = Self.root
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "scripts/embed-console --check: \(message)")
    }

    @Test func everyAssetIsEmbedded() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.assets.path)
            .filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(ConsoleAssets.files.keys))
        for name in ["index.html", "main.js", "console.css"] {
            #expect(ConsoleAssets.files[name] != nil, "\(name) is not embedded")
        }
    }

    @Test func pageStaysUnder300KB() throws {
        let embedded = ConsoleAssets.files.values.reduce(0) { $0 + $1.text.utf8.count }
        #expect(embedded < 300_000, "the embedded page is \(embedded) bytes")
        var onDisk = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.assets.path) where !name.hasPrefix(".") {
            onDisk += try Data(contentsOf: Self.assets.appendingPathComponent(name)).count
        }
        #expect(onDisk < 300_000, "Console/Assets holds \(onDisk) bytes")
    }

    @Test func nothingLoadsFromOutsideTheMachine() {
        // No script, style sheet, image or font from another origin: only /ui/assets/ and data: URLs.
        let external = try! Regex(#"(?i)(src|href)\s*=\s*["']?\s*(https?:)?//|url\(\s*["']?\s*(https?:)?//|@import|fetch\(\s*["'`]https?:"#)
        for (name, asset) in ConsoleAssets.files {
            #expect(asset.text.firstMatch(of: external) == nil, "\(name) refers to another origin")
        }
    }
}
