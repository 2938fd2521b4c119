import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into async events, so the server can shut down gracefully instead
/// of dying mid-commit. While it runs, the signals no longer end the process on their own.
final class SignalMonitor: Sendable {
    private let sources: Mutex<[any DispatchSourceSignal]>
    /// Every signal received, in order.
    let signals: AsyncStream<Int32>

    /// Starts watching `numbers`. With `exitOnRepeat`, a second signal exits at once (with 128 +
    /// its number), for a user who does not want to wait for the graceful shutdown.
    init(_ numbers: [Int32] = [SIGINT, SIGTERM], exitOnRepeat: Bool) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        signals = stream
        let received = Mutex(0)
        sources = Mutex(numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let count = received.withLock { count in
                    count += 1
                    return count
                }
                if exitOnRepeat && count > 1 { exit(128 + number) }
                continuation.yield(number)
            }
            source.resume()
            return source
        })
    }

    /// Waits for the first signal and returns its number.
    func firstSignal() async -> Int32 {
        for await number in signals { return number }
        return SIGTERM
    }

    /// Stops watching and restores the signals' default action.
    func stop() {
        sources.withLock { sources in
            for source in sources {
                source.cancel()
                signal(Int32(source.handle), SIG_DFL)
            }
        }
    }
}
