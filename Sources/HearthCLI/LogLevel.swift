import DocumentModel
import EmulatorServer

/// How much `hearth start` logs about requests (`logLevel` in emulator.json, `--log-level`).
enum LogLevel: String, CaseIterable {
    /// Every request, with the message of every failure.
    case debug
    /// Every request: method, path, caller and status (the default).
    case info
    /// Failed requests only.
    case warning
    /// Only requests that failed inside the server (INTERNAL, UNKNOWN, DATA_LOSS).
    case error

    /// The level named `text`.
    ///
    /// - Throws: `CommandFailure` listing the levels.
    init(parsing text: String) throws {
        guard let level = LogLevel(rawValue: text.lowercased()) else {
            throw CommandFailure(
                "unknown log level '\(text)': use one of \(LogLevel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = level
    }

    /// The line to log for `entry`, or `nil` if this level leaves it out.
    func line(for entry: RequestLogEntry) -> String? {
        switch (self, entry.failure) {
        case (.debug, let failure?): return "\(entry) \(failure.message)"
        case (.debug, nil), (.info, _): return entry.description
        case (.warning, .some): return entry.description
        case (.error, let failure?) where [.internal, .unknown, .dataLoss].contains(failure.code):
            return "\(entry) \(failure.message)"
        default: return nil
        }
    }
}
