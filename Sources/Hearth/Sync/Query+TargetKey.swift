import DocumentModel
import FirestoreWire
import SwiftProtobuf

extension DocumentModel.Query {
    /// A stable text naming the query, for its target record in the local cache: its parent
    /// and its structured query's deterministic protobuf encoding.
    var targetKey: String {
        var options = BinaryEncodingOptions()
        options.useDeterministicOrdering = true
        let bytes: [UInt8] = (try? structured.proto.serializedBytes(options: options)) ?? []
        return protoParent + "|" + bytes.map { String($0, radix: 16) }.joined(separator: ".")
    }
}
