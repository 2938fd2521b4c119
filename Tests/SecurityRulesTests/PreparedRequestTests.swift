import Testing

@testable import SecurityRules

/// `PreparedRequest` borrows the request of a decision by address: it exists only inside its
/// scope, and one kept past the scope stops the program rather than read freed memory.
@Suite struct PreparedRequestTests {
    @Test func aPreparedRequestReadsTheRequestInItsScope() {
        let request = Fixture.request(.create, "users/alice", newData: ["name": "Alice"])
        let read = PreparedRequest.with(request) { prepared in
            (prepared.method, prepared.request.path.description, prepared.database == Fixture.database)
        }
        #expect(read == (.create, "users/alice", true))
        let batch = [request, Fixture.request(.delete, "users/bob")]
        let methods = PreparedRequest.withEach(batch) { prepared in prepared.map(\.method) }
        #expect(methods == [.create, .delete])
    }

    @Test func keepingAPreparedRequestPastItsScopeStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var kept: PreparedRequest?
            PreparedRequest.with(Fixture.request(.get, "users/alice")) { kept = $0 }
            // Not reached: reading `kept` here would read the request after it is gone.
            _ = kept?.request.path
        }
    }

    @Test func keepingAPreparedRequestOfABatchPastItsScopeStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var kept: [PreparedRequest] = []
            PreparedRequest.withEach([Fixture.request(.get, "users/alice")]) { kept = $0 }
            _ = kept.first?.request.path
        }
    }
}
