import DocumentModel
import Testing

/// Sizes from Firestore's "Storage size calculations" page.
@Suite struct StorageSizeTests {
    @Test func documentNameFromTheDocsExample() throws {
        // users (6) + jeff (5) + tasks (6) + my_task_id (11) + 16.
        #expect(StorageSize.documentName(try ResourcePath("users/jeff/tasks/my_task_id")) == 44)
        #expect(StorageSize.documentName(.root) == 16)
    }

    @Test func taskDocumentFromTheDocsExample() throws {
        let fields: MapValue = [
            "type": "Personal", "done": false, "priority": 1, "description": "Learn Cloud Firestore",
        ]
        // type 5 + 9, done 5 + 1, priority 9 + 8, description 12 + 22.
        #expect(StorageSize.fields(fields) == 71)
        let path = try ResourcePath("users/jeff/tasks/my_task_id")
        #expect(StorageSize.document(path: path, fields: fields) == 147)
        let document = Document(
            name: try DocumentName(DatabaseID(project: "p"), path), fields: fields, createTime: .min, updateTime: .max)
        #expect(document.storageSize == 147)
    }

    @Test func sizeOfEachType() throws {
        #expect(StorageSize.value(.null) == 1)
        #expect(StorageSize.value(true) == 1 && StorageSize.value(false) == 1)
        #expect(StorageSize.value(.integer(Int64.max)) == 8 && StorageSize.value(0) == 8)
        #expect(StorageSize.value(.double(.nan)) == 8 && StorageSize.value(1.5) == 8)
        #expect(StorageSize.value(.timestamp(.max)) == 8)
        #expect(StorageSize.value(geoPoint(1, 2)) == 16)
        #expect(StorageSize.value("") == 1 && StorageSize.value("abc") == 4)
        // Strings count UTF-8 bytes, not characters or UTF-16 units.
        #expect(
            StorageSize.value("é") == 3 && StorageSize.value("e\u{301}") == 4 && StorageSize.value("\u{1F600}") == 5)
        #expect(StorageSize.value(.bytes([])) == 0 && StorageSize.value(.bytes([0, 1, 2])) == 3)
        // A reference is the size of the document name: users (6) + jeff (5) + 16.
        #expect(StorageSize.value(reference("users/jeff")) == 27)
        #expect(StorageSize.value([1, "a", nil]) == 8 + 2 + 1)
        #expect(StorageSize.value(["a": 1, "bc": ["d": true]]) == (2 + 8) + (3 + 2 + 1))
        // An empty array or map counts 1 byte (measured on Google's emulator).
        #expect(StorageSize.value([]) == 1 && StorageSize.value([:]) == 1 && StorageSize.value([[], [:]]) == 2)
        #expect(StorageSize.fields([:]) == 0)
    }

    @Test func limits() {
        #expect(StorageSize.maxDocumentBytes == 1 << 20)
        #expect(StorageSize.maxFieldValueBytes == (1 << 20) - 89)
    }

    /// The size of a map is the sum of its parts, whatever the nesting.
    @Test(arguments: TestSeeds.property)
    func mapSizeIsTheSumOfEntries(seed: UInt64) {
        var random = RandomValueGenerator(seed: seed)
        for _ in 0..<500 {
            let map = random.map(depth: 3)
            let expected = map.entries.reduce(0) { $0 + $1.key.utf8.count + 1 + StorageSize.value($1.value) }
            #expect(StorageSize.fields(map) == expected, "seed \(seed)")
            #expect(StorageSize.value(.map(map)) == (map.isEmpty ? 1 : expected), "seed \(seed)")
        }
    }
}
