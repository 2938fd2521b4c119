/// A failure the command reports as `Error: <message>` (without usage) and exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
