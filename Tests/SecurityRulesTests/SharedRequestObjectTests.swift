import DocumentModel
import Testing

@testable import SecurityRules

/// The objects behind `request`, `request.auth` and documents are `Sendable`: a first use from
/// many tasks at once builds each field once, and every task reads the same, correct values.
@Suite struct SharedRequestObjectTests {
    /// What one task read from the shared `request`: the identities of the maps it got and the
    /// values below them.
    struct Reading: Equatable, Sendable {
        let auth: ObjectIdentifier?
        let token: ObjectIdentifier?
        let resource: ObjectIdentifier?
        let data: ObjectIdentifier?
        let values: [String]
    }

    static func identity(_ value: RValue) -> ObjectIdentifier? {
        guard case .map(let map) = value else { return nil }
        return ObjectIdentifier(map)
    }

    /// Reads members of `request` the way the evaluator reads a member chain.
    static func read(_ request: RValue) -> Reading {
        let span = SourceSpan.none
        func member(_ value: RValue, _ names: String...) -> RValue {
            names.reduce(value) { MemberNode.member($0, $1, span: span) }
        }
        let auth = member(request, "auth")
        let token = member(auth, "token")
        let resource = member(request, "resource")
        let data = member(resource, "data")
        let values = [
            member(auth, "uid"), member(token, "email"), member(token, "sub"), member(data, "name"),
            member(data, "age"), member(resource, "id"), member(request, "method"),
        ].map(\.description)
        return Reading(
            auth: identity(auth), token: identity(token), resource: identity(resource), data: identity(data),
            values: values)
    }

    @Test func concurrentFirstReadsOfOneRequestSeeTheSameValues() async {
        let request = Fixture.request(
            .create, "users/alice", claims: ["email": "alice@example.com"], newData: ["name": "Alice", "age": 30])
        let expected = SharedRequestObjectTests.read(.map(RMap(object: RequestObject(request)))).values
        #expect(expected == ["'alice'", "'alice@example.com'", "'alice'", "'Alice'", "30", "'alice'", "'create'"])
        // Each round reads a fresh object from many tasks at once, so its fields are first built
        // concurrently.
        for _ in 0..<200 {
            let shared = RValue.map(RMap(object: RequestObject(request)))
            let readings = await withTaskGroup(of: Reading.self) { group in
                for _ in 0..<16 {
                    group.addTask { SharedRequestObjectTests.read(shared) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let first = readings[0]
            #expect(first.values == expected)
            #expect(first.auth != nil && first.token != nil && first.resource != nil && first.data != nil)
            guard readings.allSatisfy({ $0 == first }) else {
                Issue.record("tasks read different values or objects: \(readings)")
                return
            }
        }
    }

    @Test func concurrentReadsOfOneDocumentAndAuthSeeTheSameMaps() async {
        let document = Fixture.document("users/alice", ["name": "Alice"])
        let auth = RulesAuth(uid: "alice", token: ["email": "alice@example.com"])
        for _ in 0..<200 {
            let documentObject = DocumentObject(document)
            let authObject = AuthObject(auth)
            let identities = await withTaskGroup(of: [ObjectIdentifier?].self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        [
                            SharedRequestObjectTests.identity(documentObject.value(for: "data") ?? .null),
                            SharedRequestObjectTests.identity(authObject.value(for: "token") ?? .null),
                        ]
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(identities[0].allSatisfy { $0 != nil })
            guard identities.allSatisfy({ $0 == identities[0] }) else {
                Issue.record("tasks read different maps: \(identities)")
                return
            }
        }
    }
}
