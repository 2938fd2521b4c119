import EmulatorServer
import Foundation
import GRPCCore

/// The rules and callers of the security rules tests.
enum RulesFixtures {
    /// `open/**` is open to all; `users/{uid}` is readable and creatable by its own user only
    /// (reads on line 8, creates on line 9) and never updatable (line 10).
    static let source = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /open/{doc=**} {
              allow read, write: if true;
            }
            match /users/{uid} {
              allow read: if request.auth != null && request.auth.uid == uid;
              allow create: if request.auth != null && request.auth.uid == uid;
              allow update: if false;
            }
          }
        }

        """

    static let rules = RulesFile(source: source)

    /// An unsigned JWT (`alg: none`) with `claims`, as the emulators accept it.
    static func token(_ claims: [String: Any]) -> String {
        func part(_ object: [String: Any]) -> String {
            let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return part(["alg": "none", "typ": "JWT"]) + "." + part(claims) + "."
    }

    /// `Authorization: Bearer <token>` for the user `uid`.
    static func user(_ uid: String) -> Metadata {
        ["authorization": .string("Bearer " + token(["sub": uid, "email": "\(uid)@example.com"]))]
    }

    /// The same header for HTTP.
    static func userHeader(_ uid: String) -> [String: String] {
        ["Authorization": "Bearer " + token(["sub": uid])]
    }
}

/// Every message of a server-streaming response.
func allMessages<Message: Sendable>(_ response: StreamingClientResponse<Message>) async throws -> [Message] {
    try await response.messages.reduce(into: []) { $0.append($1) }
}
