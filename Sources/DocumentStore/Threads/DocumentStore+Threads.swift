extension DocumentStore {
    /// Runs `work` on the store's reader threads and returns its result.
    ///
    /// The store's synchronous API blocks its caller on LevelDB. Async code (a server handler,
    /// an app's task) calls it through `reading` so that the blocking happens on threads kept
    /// for it, never on Swift's cooperative threads, which every other task of the process
    /// needs. The store's own async methods (transactional reads, `commitWaitingForLocks`)
    /// already do so.
    ///
    /// ```swift
    /// let profile = try await store.reading { try store.document(alice) }
    /// ```
    public func reading<Result: Sendable>(_ work: @Sendable () async throws -> Result) async throws -> Result {
        try await withTaskExecutorPreference(threads.readers, operation: work)
    }

    /// Runs `work` on the store's one writer thread (see `reading(_:)`): for synchronous commits
    /// and other writes from async code. `work` must not wait synchronously for other work on
    /// the writer thread (it would wait for itself); suspending with `await` is fine.
    ///
    /// ```swift
    /// try await store.writing { try store.commit([.set(alice, fields: ["visits": 1])]) }
    /// ```
    public func writing<Result: Sendable>(_ work: @Sendable () async throws -> Result) async throws -> Result {
        try await withTaskExecutorPreference(threads.writer, operation: work)
    }
}

extension DocumentStore {
    /// The store's reader threads as a task executor, for code that runs a whole request on
    /// them (the server's request runner).
    package var readerExecutor: any TaskExecutor { threads.readers }

    /// The store's writer thread as a task executor (see `readerExecutor`).
    package var writerExecutor: any TaskExecutor { threads.writer }
}
