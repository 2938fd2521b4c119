public import DocumentStore

/// Runs an emulator server for `store` while `body` runs, then shuts it down gracefully and
/// waits until it has stopped.
///
/// ```swift
/// try await withEmulatorServer(store: store, configuration: .init(port: 0)) { server in
///     let address = try await server.listeningAddress   // e.g. 127.0.0.1:53711
///     // FIRESTORE_EMULATOR_HOST=\(address)
/// }
/// ```
///
/// - Throws: the server's startup error (such as the port being in use) or `body`'s error.
public func withEmulatorServer<Result: Sendable>(
    store: DocumentStore, configuration: EmulatorServerConfiguration = EmulatorServerConfiguration(),
    _ body: (EmulatorServer) async throws -> Result
) async throws -> Result {
    let server = EmulatorServer(store: store, configuration: configuration)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            _ = try await server.listeningAddress
        } catch {
            // The server could not listen: report why, from `run()`.
            try await group.next()
            throw error
        }
        let result: Result
        do {
            result = try await body(server)
        } catch {
            server.beginGracefulShutdown()
            try? await group.waitForAll()
            throw error
        }
        server.beginGracefulShutdown()
        try await group.waitForAll()
        return result
    }
}
