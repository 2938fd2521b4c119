import DocumentModel
import FirestoreWire
import Foundation
import FirestoreProto
import SwiftProtobuf

/// The query parameters of a REST request, bound to request message fields the way Google's
/// HTTP transcoding binds them: dotted field names in JSON (`updateMask.fieldPaths`) or proto
/// (`update_mask.field_paths`) spelling, repeated fields by repeating the parameter.
///
/// Every parameter must be bound: `finish()` refuses the first one no field took, with Google's
/// message. Google's system parameters (`key`, `alt`, `prettyPrint`, ...) are ignored.
struct QueryParameters {
    private var remaining: [(name: String, value: String)]

    private static let systemParameters: Set<String> = [
        "key", "alt", "prettyPrint", "fields", "accessToken", "quotaUser", "$.xgafv", "callback", "uploadType",
        "uploadProtocol",
    ]

    init(_ query: [(name: String, value: String)]) {
        remaining = query.map { (QueryParameters.camelCase($0.name), $0.value) }
            .filter { !QueryParameters.systemParameters.contains($0.0) }
    }

    /// Every value of `name`, removed from the parameters.
    mutating func strings(_ name: String) -> [String] {
        let values = remaining.filter { $0.name == name }.map(\.value)
        remaining.removeAll { $0.name == name }
        return values
    }

    /// The single value of `name`, if given.
    mutating func string(_ name: String) throws -> String? {
        let values = strings(name)
        guard values.count <= 1 else {
            throw FirestoreError.invalidArgument("Invalid query parameter \"\(name)\": it is given more than once")
        }
        return values.first
    }

    mutating func bool(_ name: String) throws -> Bool? {
        guard let text = try string(name) else { return nil }
        guard let value = Bool(text) else { throw invalid(name, text, "true or false") }
        return value
    }

    mutating func int32(_ name: String) throws -> Int32? {
        guard let text = try string(name) else { return nil }
        guard let value = Int32(text) else { throw invalid(name, text, "a 32-bit integer") }
        return value
    }

    mutating func timestamp(_ name: String) throws -> Google_Protobuf_Timestamp? {
        guard let text = try string(name) else { return nil }
        return try Timestamp(rfc3339: text).proto
    }

    mutating func bytes(_ name: String) throws -> Data? {
        guard let text = try string(name) else { return nil }
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let padded = standard + String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: padded) else { throw invalid(name, text, "base64") }
        return data
    }

    /// A `DocumentMask` from `<prefix>.fieldPaths`, or `nil` if none is given.
    mutating func mask(_ prefix: String) -> Google_Firestore_V1_DocumentMask? {
        let paths = strings(prefix + ".fieldPaths")
        guard !paths.isEmpty else { return nil }
        var mask = Google_Firestore_V1_DocumentMask()
        mask.fieldPaths = paths
        return mask
    }

    /// A `Precondition` from `currentDocument.exists` or `currentDocument.updateTime`.
    mutating func precondition() throws -> Google_Firestore_V1_Precondition? {
        let exists = try bool("currentDocument.exists")
        let updateTime = try timestamp("currentDocument.updateTime")
        var precondition = Google_Firestore_V1_Precondition()
        switch (exists, updateTime) {
        case (nil, nil): return nil
        case (let exists?, nil): precondition.exists = exists
        case (nil, let time?): precondition.updateTime = time
        case (.some, .some):
            throw FirestoreError.invalidArgument("A precondition takes one of currentDocument.exists and currentDocument.updateTime")
        }
        return precondition
    }

    /// Refuses the first parameter no field took.
    func finish() throws {
        if let unbound = remaining.first {
            throw FirestoreError.invalidArgument(
                "Invalid JSON payload received. Unknown name \"\(unbound.name)\": Cannot bind query parameter.")
        }
    }

    private func invalid(_ name: String, _ text: String, _ expected: String) -> FirestoreError {
        FirestoreError.invalidArgument("Invalid value at '\(name)' (\(expected)), \"\(text)\"")
    }

    /// `update_mask.field_paths` as `updateMask.fieldPaths`.
    private static func camelCase(_ name: String) -> String {
        name.split(separator: ".", omittingEmptySubsequences: false).map { part in
            let words = part.split(separator: "_", omittingEmptySubsequences: false)
            return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
                .joined()
        }.joined(separator: ".")
    }
}
