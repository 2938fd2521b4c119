import DocumentModel
import DocumentStore
import FirestoreWire
import Foundation
import QueryEngine
import Testing

/// `QueryView` (the query engine over documents in memory, which the client's cache uses)
/// against the store: every recorded query of `Tests/QueryConformance/cases` is run by
/// `DocumentStore.runQuery` over the case's dataset and by `QueryView.results(from:)` over all of
/// its documents, which must give identical documents in identical order, or identical errors.
@Suite("QueryView answers as the store")
struct QueryViewConformanceTests {
    @Test("Every recorded query: the same documents, order and errors", arguments: QueryConformanceTests.caseFiles)
    func recordedCases(file: String) throws {
        let data = try Data(contentsOf: QueryConformanceTests.casesFolder.appendingPathComponent(file))
        let testCase = try JSONValue(parsing: [UInt8](data))
        let run = try ConformanceRun(testCase)
        defer { run.close() }
        let everything = try run.store.runQuery(
            Query(database: run.database, parent: .root, structured: StructuredQuery(from: CollectionSelector(collectionID: "", allDescendants: true))))
            .documents
        #expect(everything.count == (try ConformanceRun.array(testCase["documents"])).count)
        // Any order of the input gives the same answer.
        let shuffled = everything.reversed()
        var compared = 0
        for entry in try ConformanceRun.array(testCase["queries"]) {
            guard let body = entry["structuredQuery"] else { continue }
            let id = (try? ConformanceRun.string(entry["id"])) ?? "?"
            let query: Query
            do {
                let parentText = try ConformanceRun.string(entry["parent"] ?? .string(""))
                let parent = parentText.isEmpty ? ResourcePath.root : try ResourcePath(parentText)
                query = Query(database: run.database, parent: parent, structured: try RESTJSON.decodeQuery(body))
            } catch {
                continue  // refused while decoding, before either engine sees it
            }
            let stored = Self.outcome { try run.store.runQuery(query).documents }
            let viewed = Self.outcome { try QueryView(query).results(from: shuffled) }
            compared += 1
            if let difference = Self.difference(stored, viewed) {
                Issue.record("\(file) \(id): \(difference)\n  query: \(ConformanceRun.describe(entry))")
            }
        }
        #expect(compared > 0)
    }

    /// The documents, or the error, of one engine.
    static func outcome(_ body: () throws -> [Document]) -> Result<[Document], FirestoreError> {
        do { return .success(try body()) } catch let error as FirestoreError { return .failure(error) } catch {
            return .failure(FirestoreError(.unknown, String(describing: error)))
        }
    }

    /// How the view's answer differs from the store's, nil if identical.
    static func difference(
        _ stored: Result<[Document], FirestoreError>, _ viewed: Result<[Document], FirestoreError>
    ) -> String? {
        switch (stored, viewed) {
        case (.failure(let a), .failure(let b)):
            return a.code == b.code && a.message == b.message
                ? nil : "store: \(a.code.name) \(a.message); view: \(b.code.name) \(b.message)"
        case (.failure(let a), .success): return "store refused (\(a.code.name) \(a.message)), view answered"
        case (.success, .failure(let b)): return "store answered, view refused (\(b.code.name) \(b.message))"
        case (.success(let a), .success(let b)):
            guard a.map(\.name) == b.map(\.name) else {
                return "store: \(a.map(\.name.path.description)); view: \(b.map(\.name.path.description))"
            }
            for (left, right) in zip(a, b) where !identical(left, right) {
                return "\(left.name.path) differs in fields or times"
            }
            return nil
        }
    }

    static func identical(_ a: Document, _ b: Document) -> Bool {
        a.name == b.name && a.createTime == b.createTime && a.updateTime == b.updateTime
            && Value.map(a.fields).isIdentical(to: .map(b.fields))
    }
}
