import Foundation
import Testing

/// Every test of this target, one at a time: they start servers, kill them and time the client.
@Suite(.serialized) struct OfflineSuite {}

/// The harness of the offline scenarios on its own: servers killed and restarted on their port,
/// the official Python client, the timeout helper. No client cache is involved (REST as the admin).
extension OfflineSuite {
    @Suite struct HarnessTests {
        @Test func hearthSurvivesSIGKILLAndRestartsOnItsPortAndFolder() async throws {
            let workspace = try Workspace("harness-hearth")
            let server = try await workspace.server(.hearth)
            let rest = RESTClient(server: server)
            try await rest.set("harness/one", ["text": "before the kill"])

            try await server.kill()
            #expect(!server.isRunning)
            #expect(
                !ServerProcess.canConnect(host: server.host, port: server.port), "the port still answers after SIGKILL")

            let (restart, _) = try await timed { try await server.restart() }
            print("hearth restart on port \(server.port): \(ms(restart))")
            #expect(try await rest.get("harness/one") == ["text": "before the kill"], "the data folder was not kept")
        }

        @Test(
            .enabled(
                if: PythonClient.isAvailable, "the official Python client (google-cloud-firestore) is not installed"))
        func pythonClientReadsADocumentFromHearth() async throws {
            let workspace = try Workspace("harness-python")
            let server = try await workspace.server(.hearth)
            try await RESTClient(server: server).set("harness/python", ["text": "hello"])
            #expect(try await PythonClient.read("harness/python", from: server) == ["text": .string("hello")])
            #expect(try await PythonClient.read("harness/absent", from: server) == nil)
        }

        @Test(
            .enabled(
                if: GoogleEmulator.isInstalled,
                "Google's emulator (google-cloud-cli-firestore-emulator, java) is not installed"))
        func googleEmulatorStartsAndRestartsOnItsPort() async throws {
            let workspace = try Workspace("harness-google")
            let (start, server) = try await timed { try await workspace.server(.google) }
            print("Google's emulator start on port \(server.port): \(ms(start))")
            let rest = RESTClient(server: server)
            let (write, _) = try await timed { try await rest.set("harness/one", ["text": "before the kill"]) }
            print("Google's emulator first REST write: \(ms(write))")
            if PythonClient.isAvailable {
                #expect(
                    try await PythonClient.read("harness/one", from: server) == ["text": .string("before the kill")])
            }
            let (kill, _) = try await timed { try await server.kill() }
            #expect(
                !ServerProcess.canConnect(host: server.host, port: server.port), "the port still answers after SIGKILL")
            let (restart, _) = try await timed { try await server.restart() }
            print("Google's emulator kill: \(ms(kill)), restart: \(ms(restart))")
            // Google's emulator keeps its data in memory: a kill loses it (the scenarios expect that).
            let (read, value) = try await timed { try await rest.get("harness/one") }
            print("Google's emulator REST read after restart: \(ms(read))")
            #expect(value == nil)
        }

        @Test func timeoutHelperGivesUpOnAnOperationThatIgnoresCancellation() async throws {
            let (elapsed, outcome) = await timed { () async -> Result<Int, any Error> in
                do {
                    return .success(
                        try await within(0.2, "a wait that ignores cancellation") {
                            await withCheckedContinuation { continuation in
                                DispatchQueue.global().asyncAfter(deadline: .now() + 2) { continuation.resume() }
                            }
                            return 1
                        })
                } catch {
                    return .failure(error)
                }
            }
            #expect(throws: TimedOut.self) { try outcome.get() }
            #expect(elapsed < 1.5)
            #expect(try await within(5, "a quick operation") { 42 } == 42)
        }
    }
}
