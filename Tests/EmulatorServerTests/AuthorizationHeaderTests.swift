@testable import EmulatorServer
import DocumentModel
import Testing

/// The `Authorization` header read as Google's emulator reads it (measured with probes).
@Suite struct AuthorizationHeaderTests {
    private func jwt(_ payload: String, header: String = #"{"alg":"none","typ":"JWT"}"#, signature: String = "") -> String {
        "Bearer \(base64URL(header)).\(base64URL(payload)).\(signature)"
    }

    @Test func ownerAndNoHeader() throws {
        #expect(try AuthorizationHeader.parse(nil) == .unauthenticated)
        #expect(try AuthorizationHeader.parse("Bearer owner") == .owner)
        #expect(try AuthorizationHeader.parse("bearer owner") == .owner)
        // Measured on Google's emulator: `owner` in any case is the owner.
        #expect(try AuthorizationHeader.parse("Bearer Owner") == .owner)
        #expect(try AuthorizationHeader.parse("Bearer OWNER") == .owner)
    }

    @Test func unsignedTokensBecomeRequestAuth() throws {
        let token = try AuthorizationHeader.parse(jwt(#"{"sub":"alice","email":"a@example.com","n":3,"f":{"x":[1.5]}}"#))
        #expect(token == .user(AuthToken(
            uid: "alice",
            claims: ["sub": "alice", "email": "a@example.com", "n": 3, "f": ["x": [1.5]]])))
        // Measured on Google's emulator: `user_id` without `sub` gives no uid (`request.auth`
        // set, `request.auth.uid == null`).
        let userID = try AuthorizationHeader.parse(jwt(#"{"user_id":"bob"}"#))
        #expect(userID == .user(AuthToken(uid: nil, claims: ["user_id": "bob"])))
        let noUID = try AuthorizationHeader.parse(jwt(#"{"email":"x"}"#))
        #expect(noUID == .user(AuthToken(uid: nil, claims: ["email": "x"])))
        // Signatures are never checked, as in Google's emulator.
        let signed = try AuthorizationHeader.parse(jwt(#"{"sub":"carol"}"#, header: #"{"alg":"HS256"}"#, signature: "c2ln"))
        #expect(RequestContext(authentication: signed).callerDescription == "carol")
    }

    @Test func malformedTokensAreInvalidJWTs() {
        let header = base64URL(#"{"alg":"none"}"#)
        let bad = [
            "Bearer garbage", "Bearer ", "Bearer a.b.c", "Bearer  owner", "Bearer owner2",
            "Bearer \(header).\(base64URL("not json")).", "Bearer \(header).\(base64URL("[1,2]")).",
            "Bearer \(header).\(base64URL(#"{"sub":"x"}"#))", "Bearer xx.\(base64URL(#"{"sub":"x"}"#)).",
            "Bearer \(header).\(base64URL(#"{"sub":"x"}"#)).a.b",
        ]
        for value in bad {
            #expect(throws: FirestoreError.invalidArgument("invalid jwt"), "\(value)") {
                try AuthorizationHeader.parse(value)
            }
        }
        for value in ["Basic dXNlcjpwYXNz", "owner", ""] {
            #expect(throws: FirestoreError.self, "\(value)") { try AuthorizationHeader.parse(value) }
        }
    }
}
