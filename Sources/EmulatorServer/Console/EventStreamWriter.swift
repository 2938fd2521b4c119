/// Writes Server-Sent Events to one open HTTP response, each event as soon as it is given.
///
/// ```swift
/// try await writer.send(event: "request", id: "17", data: #"{"id": 17}"#)
/// try await writer.comment("keep-alive")
/// ```
struct EventStreamWriter: Sendable {
    /// Writes bytes to the response and flushes them; returns once the connection took them, so
    /// a client that reads slowly slows its producer instead of filling memory.
    ///
    /// - Throws: once the connection is closed.
    let write: @Sendable ([UInt8]) async throws -> Void

    /// Sends one event: its `id` (if any), its name and its `data`.
    func send(event: String, id: String? = nil, data: String) async throws {
        try await write(Array(EventStreamWriter.text(event: event, id: id, data: data).utf8))
    }

    /// The text of one event, for writing several at once: `id: …` (if any), `event: …`, a
    /// `data: …` line per line of `data`, and the blank line that ends the event.
    static func text(event: String, id: String? = nil, data: String) -> String {
        var text = ""
        if let id { text += "id: \(id)\n" }
        text += "event: \(event)\n"
        // A line break would end the data field: send each line as its own field.
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return text + "\n"
    }

    /// Sends a comment line (`: text`), which clients ignore: what keeps idle connections open.
    func comment(_ text: String) async throws {
        try await write(Array(": \(text)\n\n".utf8))
    }
}
