package import DocumentModel
package import FirestoreProto
package import Foundation

extension TransactionOptions {
    /// Decodes proto `TransactionOptions`; with no mode, a read-write transaction.
    package init(proto options: Google_Firestore_V1_TransactionOptions) throws {
        switch options.mode {
        case nil:
            self = .readWrite()
        case .readWrite(let readWrite):
            self = .readWrite(
                retrying: readWrite.retryTransaction.isEmpty ? nil : TransactionID(bytes: [UInt8](readWrite.retryTransaction)))
        case .readOnly(let readOnly):
            switch readOnly.consistencySelector {
            case nil: self = .readOnly()
            case .readTime(let time): self = .readOnly(readTime: try Timestamp(proto: time))
            }
        }
    }
}

extension TransactionID {
    /// A transaction id from a request's `transaction` bytes.
    package init(proto data: Data) throws {
        guard !data.isEmpty else { throw FirestoreError.invalidArgument("transaction must not be empty") }
        self.init(bytes: [UInt8](data))
    }

    /// The id as a message's `transaction` bytes.
    package var proto: Data { Data(bytes) }
}
