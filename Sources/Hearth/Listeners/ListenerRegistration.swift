/// A listener added by `addSnapshotListener`; `remove()` stops it.
///
/// ```swift
/// let registration = ref.addSnapshotListener { snapshot, error in ... }
/// registration.remove()
/// ```
public protocol ListenerRegistration: Sendable {
    /// Stops the listener: no more callbacks are made, and what it holds is released.
    func remove()
}

/// The registration of a listener run by a task that consumes a snapshot sequence.
final class TaskListenerRegistration: ListenerRegistration {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Runs `listener` for each element of `sequence`, then once with the error that ends it
    /// (unless the registration was removed), until `remove()`. Each call runs in the
    /// listener's isolation (on the main actor for a `@MainActor` closure), one after the
    /// other in the order of the snapshots.
    static func consuming<Snapshots: AsyncSequence & Sendable>(
        _ sequence: Snapshots,
        _ listener: @escaping @isolated(any) @Sendable (Snapshots.Element?, (any Error)?) -> Void
    ) -> TaskListenerRegistration where Snapshots.Element: Sendable {
        TaskListenerRegistration(
            task: Task {
                do {
                    for try await snapshot in sequence {
                        guard !Task.isCancelled else { return }
                        await listener(snapshot, nil)
                    }
                } catch is CancellationError {
                } catch {
                    if !Task.isCancelled { await listener(nil, error) }
                }
            })
    }

    func remove() {
        task.cancel()
    }
}
