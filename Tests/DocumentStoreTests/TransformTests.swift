import DocumentModel
import DocumentStore
import Testing

@Suite("Field transforms")
struct TransformTests {
    /// Applies one transform to a document holding `initial` in field `f`, returning the new
    /// field value and the transform result.
    private func apply(_ kind: FieldTransform.Kind, to initial: Value?) throws -> (Value?, Value) {
        let fixture = try StoreFixture()
        let doc = try fixture.name("t/doc")
        var fields: MapValue = [:]
        if let initial { fields["f"] = initial }
        try fixture.store.commit([.set(doc, fields: fields)])
        let result = try fixture.store.commit([
            Write(name: doc, operation: .transform, transforms: [FieldTransform(try .path("f"), kind)])
        ])
        let stored = try fixture.store.document(doc)?.fields["f"]
        return (stored, result.writeResults[0].transformResults[0])
    }

    private func expectIdentical(_ actual: Value?, _ expected: Value, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual?.isIdentical(to: expected) == true, "got \(String(describing: actual)), want \(expected)",
                sourceLocation: sourceLocation)
    }

    @Test("server timestamps are the commit time, also in nested fields, and are returned")
    func serverTimestamp() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("users/u")
        let result = try fixture.store.commit([
            .create(doc, fields: ["uid": "u"], transforms: [
                FieldTransform(try .path("createdAt"), .serverTimestamp),
                FieldTransform(try .path("meta.updatedAt"), .serverTimestamp),
            ])
        ])
        let fields = try #require(try fixture.store.document(doc)?.fields)
        #expect(fields["createdAt"] == .timestamp(result.commitTime))
        #expect(fields.value(at: try .path("meta.updatedAt")) == .timestamp(result.commitTime))
        #expect(result.writeResults[0].transformResults == [.timestamp(result.commitTime), .timestamp(result.commitTime)])
        #expect(result.commitTime == StoreFixture.start)
    }

    @Test("increment: integer arithmetic saturates, doubles win, non-numbers are replaced")
    func increment() throws {
        expectIdentical(try apply(.increment(5), to: 10).0, .integer(15))
        expectIdentical(try apply(.increment(1), to: .integer(.max)).0, .integer(.max))
        expectIdentical(try apply(.increment(.integer(-2)), to: .integer(.min)).0, .integer(.min))
        expectIdentical(try apply(.increment(1.5), to: 1).0, .double(2.5))
        expectIdentical(try apply(.increment(1), to: 1.5).0, .double(2.5))
        expectIdentical(try apply(.increment(3), to: "text").0, .integer(3))
        expectIdentical(try apply(.increment(3), to: nil).0, .integer(3))
        let (value, result) = try apply(.increment(2), to: 40)
        expectIdentical(value, .integer(42))
        expectIdentical(result, .integer(42))
    }

    @Test("maximum and minimum keep the stored value on ties and take the winner's type")
    func extremes() throws {
        expectIdentical(try apply(.maximum(5), to: 3).0, .integer(5))
        expectIdentical(try apply(.maximum(3.0), to: 3).0, .integer(3))
        expectIdentical(try apply(.maximum(3), to: 3.0).0, .double(3.0))
        expectIdentical(try apply(.maximum(4.5), to: 3).0, .double(4.5))
        expectIdentical(try apply(.minimum(-0.0), to: 0).0, .integer(0))
        expectIdentical(try apply(.minimum(1), to: 3.5).0, .integer(1))
        expectIdentical(try apply(.maximum(.double(.nan)), to: 3).0, .double(.nan))
        expectIdentical(try apply(.minimum(7), to: "x").0, .integer(7))
        expectIdentical(try apply(.minimum(7), to: nil).0, .integer(7))
    }

    @Test("array union appends missing elements once; array remove removes every equal element")
    func arrays() throws {
        let (union, unionResult) = try apply(.appendMissingElements([1.0, 2, 2, "x", .double(.nan)]), to: [1, .double(.nan)])
        expectIdentical(union, [1, .double(.nan), 2, "x"])
        #expect(unionResult == .null)
        expectIdentical(try apply(.appendMissingElements([1]), to: "not an array").0, [1])
        expectIdentical(try apply(.appendMissingElements([]), to: nil).0, [])
        let (removed, removeResult) = try apply(.removeAllFromArray([1, .double(.nan), .null]), to: [1, 1.0, 2, .double(.nan), .null, 3])
        expectIdentical(removed, [2, 3])
        #expect(removeResult == .null)
        expectIdentical(try apply(.removeAllFromArray([1]), to: 5).0, [])
    }

    @Test("a numeric transform with a non-numeric operand is refused and writes nothing")
    func badOperand() throws {
        let fixture = try StoreFixture()
        let doc = try fixture.name("t/bad")
        let error = #expect(throws: FirestoreError.self) {
            try fixture.store.commit([.set(doc, fields: [:], transforms: [FieldTransform(try .path("n"), .increment("1"))])])
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("n") == true)
        #expect(try fixture.store.document(doc) == nil)
    }
}
