@testable import EmulatorServer
import Foundation
import Testing

/// The console's page under `/ui`: the redirect, `index.html` at the root and at deep links,
/// the assets with their content types, and no request log entry for any of it.
@Suite struct ConsoleRoutesTests {
    private let index = ConsoleAssets.files["index.html"]!.text

    @Test func rootRedirectsToTheSlashedRoot() async throws {
        try await TestServer.run { server in
            let response = try await server.http.send("GET", "/ui")
            #expect(response.status == 301)
            #expect(response.headers["location"] == "/ui/")
        }
    }

    @Test func pageIsServedAtTheRootAndAtDeepLinks() async throws {
        try await TestServer.run { server in
            for path in [
                "/ui/", "/ui/firestore/demo-test/(default)/data/users/alice", "/ui/firestore/demo/(default)/requests",
                "/ui/rules/demo-test",
            ] {
                let response = try await server.http.send("GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["content-type"]?.hasPrefix("text/html") == true, "\(path)")
                #expect(response.body == index, "\(path)")
            }
        }
    }

    @Test func assetsHaveTheirContentTypes() async throws {
        try await TestServer.run { server in
            for module in ["main.js", "core.js", "data.js"] {
                let script = try await server.http.send("GET", "/ui/assets/\(module)")
                #expect(script.status == 200, "\(module)")
                #expect(script.headers["content-type"]?.hasPrefix("text/javascript") == true, "\(module)")
                #expect(script.body == ConsoleAssets.files[module]!.text, "\(module)")
            }
            let style = try await server.http.send("GET", "/ui/assets/console.css")
            #expect(style.status == 200)
            #expect(style.headers["content-type"]?.hasPrefix("text/css") == true)
            #expect(style.body == ConsoleAssets.files["console.css"]!.text)
        }
    }

    @Test func unknownAssetsAndPathsAreNotFound() async throws {
        try await TestServer.run { server in
            #expect(try await server.http.send("GET", "/ui/assets/missing.js").status == 404)
            #expect(try await server.http.send("GET", "/ui/elsewhere").status == 404)
            #expect(try await server.http.send("GET", "/ui/api/nothing").status == 404)
            #expect(try await server.http.send("POST", "/ui/api/overview", body: "{}").status == 404)
            let missing = try await server.http.send("GET", "/ui/api/requests/999")
            #expect(missing.status == 404)
            #expect(missing.errorStatus == "NOT_FOUND")
        }
    }

    @Test func consoleRequestsAreNotLogged() async throws {
        try await TestServer.run { server in
            _ = try await server.http.send("GET", "/ui/")
            _ = try await server.http.send("GET", "/ui/assets/main.js")
            _ = try await server.http.send("GET", "/ui/api/overview")
            _ = try await server.http.send("GET", "/")
            let listed = try await server.http.send("GET", "/ui/api/requests")
            let entries = (listed.json as? [String: Any])?["entries"] as? [[String: Any]]
            #expect(entries?.compactMap { $0["path"] as? String } == ["/"])
            #expect(server.log.all.map(\.path) == ["/"])
        }
    }
}
