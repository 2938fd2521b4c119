@testable import EmulatorServer
import Testing

/// The console's `RequestLog`: a ring of the last requests, numbered, with coalescing
/// subscriber signals.
@Suite struct ConsoleRequestLogTests {
    private func entry(_ path: String) -> RequestLogEntry {
        RequestLogEntry(transport: .http, method: "GET", path: path, caller: "owner", failure: nil, duration: 0.001)
    }

    @Test func keepsOnlyTheLastRequests() {
        let log = RequestLog(capacity: 3)
        #expect(log.last(10).isEmpty)
        for index in 1...5 { log.append(entry("/\(index)"), decisions: []) }
        #expect(log.lastID == 5)
        #expect(log.last(10).map(\.id) == [3, 4, 5])
        #expect(log.last(10).map(\.entry.path) == ["/3", "/4", "/5"])
        #expect(log.last(2).map(\.id) == [4, 5])
        #expect(log.request(id: 2) == nil)
        #expect(log.request(id: 3)?.entry.path == "/3")
        #expect(log.request(id: 6) == nil)
        #expect(log.requests(after: 0, limit: 10).map(\.id) == [3, 4, 5])
        #expect(log.requests(after: 3, limit: 10).map(\.id) == [4, 5])
        #expect(log.requests(after: 3, limit: 1).map(\.id) == [4])
        #expect(log.requests(after: 5, limit: 10).isEmpty)
    }

    @Test func subscribersAreSignalledAndCoalesced() async {
        let log = RequestLog(capacity: 10)
        let signals = log.subscribe()
        #expect(log.subscriberCount == 1)
        for index in 1...3 { log.append(entry("/\(index)"), decisions: []) }
        var iterator = signals.makeAsyncIterator()
        // Three appends, one pending signal: the subscriber reads all three at once.
        #expect(await iterator.next() != nil)
        #expect(log.requests(after: 0, limit: 10).count == 3)
        log.append(entry("/4"), decisions: [])
        #expect(await iterator.next() != nil)
    }
}
