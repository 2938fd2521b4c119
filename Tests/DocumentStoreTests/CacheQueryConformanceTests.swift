import DocumentModel
import DocumentStore
import FirestoreWire
import Foundation
import HearthEmbedded
import Testing

/// The client's cache against the server (issue 14): for every recorded query of
/// `Tests/QueryConformance/cases`, a `Firestore` whose cache was filled by reading the case's
/// whole dataset answers the query from the cache (`source: .cache`) exactly as it answers from
/// the store (`source: .server`): the same documents in the same order, or the same error.
@Suite("Queries over the client's cache answer as the server")
struct CacheQueryConformanceTests {
    @Test("Every recorded query, from a cache filled from the server", arguments: QueryConformanceTests.caseFiles)
    func recordedCases(file: String) async throws {
        let data = try Data(contentsOf: QueryConformanceTests.casesFolder.appendingPathComponent(file))
        let testCase = try JSONValue(parsing: [UInt8](data))
        let run = try ConformanceRun(testCase)
        defer { run.close() }
        let db = try Firestore.embedded(
            store: run.store, projectID: run.database.project, databaseID: run.database.database)
        let everything = DocumentModel.Query(
            database: run.database, parent: .root,
            structured: StructuredQuery(from: CollectionSelector(collectionID: "", allDescendants: true)))
        let filled = try await db.documents(of: everything, source: .server)
        #expect(filled.count == (try ConformanceRun.array(testCase["documents"])).count)
        var compared = 0
        for entry in try ConformanceRun.array(testCase["queries"]) {
            guard let body = entry["structuredQuery"] else { continue }
            let id = (try? ConformanceRun.string(entry["id"])) ?? "?"
            let query: DocumentModel.Query
            do {
                let parentText = try ConformanceRun.string(entry["parent"] ?? .string(""))
                let parent = parentText.isEmpty ? ResourcePath.root : try ResourcePath(parentText)
                query = DocumentModel.Query(database: run.database, parent: parent, structured: try RESTJSON.decodeQuery(body))
            } catch {
                continue  // refused while decoding, before either side sees it
            }
            // A projection's documents are partial: the cache answers with whole documents projected.
            let server = await Self.outcome { try await db.documents(of: query, source: .server) }
            let cache = await Self.outcome { try await db.documents(of: query, source: .cache) }
            compared += 1
            if let difference = QueryViewConformanceTests.difference(server, cache) {
                Issue.record("\(file) \(id): \(difference)\n  query: \(ConformanceRun.describe(entry))")
            }
        }
        #expect(compared > 0)
        await db.terminate()
    }

    static func outcome(_ body: () async throws -> [Document]) async -> Result<[Document], FirestoreError> {
        do { return .success(try await body()) } catch let error as FirestoreError { return .failure(error) } catch {
            return .failure(FirestoreError(.unknown, String(describing: error)))
        }
    }
}
