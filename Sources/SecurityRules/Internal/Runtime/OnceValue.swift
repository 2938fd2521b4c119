import Synchronization

/// A value computed on first use, at most once, safely from any thread: the lazy field of an
/// object that is `Sendable`. A first use from several threads at once computes it once and
/// gives them all the same value.
struct OnceValue<Value: Sendable>: ~Copyable, Sendable {
    private let storage = Mutex<Value?>(nil)

    /// The value, computed with `make` on first use (`make` runs under the lock, so it must not
    /// read this value).
    func value(_ make: () -> Value) -> Value {
        storage.withLock { stored in
            if let stored { return stored }
            let made = make()
            stored = made
            return made
        }
    }
}
