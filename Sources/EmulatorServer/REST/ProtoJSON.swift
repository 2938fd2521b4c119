import DocumentModel
import SwiftProtobuf

/// Proto3 JSON for REST bodies, with swift-protobuf's mapping of the generated messages: the
/// same mapping Firestore's REST API uses (camelCase names, int64 as strings, RFC 3339
/// timestamps, base64 bytes).
enum ProtoJSON {
    private static let encoding: JSONEncodingOptions = {
        var options = JSONEncodingOptions()
        options.useDeterministicOrdering = true
        return options
    }()

    /// The message in a request body; an empty body is the empty message.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for malformed JSON and unknown fields.
    static func decode<Message: SwiftProtobuf.Message>(_ type: Message.Type, from body: [UInt8]) throws -> Message {
        guard !body.isEmpty else { return Message() }
        do {
            return try Message(jsonUTF8Bytes: body)
        } catch {
            throw FirestoreError.invalidArgument("Invalid JSON payload received: \(error)")
        }
    }

    /// The message's JSON.
    static func encode(_ message: some SwiftProtobuf.Message) throws -> [UInt8] {
        try message.jsonUTF8Bytes(options: encoding)
    }

    /// A JSON array of messages, as REST answers a streaming RPC.
    static func encode(array messages: [some SwiftProtobuf.Message]) throws -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, message) in messages.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += try encode(message)
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}
