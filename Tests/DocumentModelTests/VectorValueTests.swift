import DocumentModel
import Testing

@Suite("Vector values")
struct VectorValueTests {
    @Test("a map of exactly __type__: \"__vector__\" and an array of doubles is a vector")
    func recognizedByShape() {
        #expect(Value.vector([1, 2]).vectorElements == [1, 2])
        #expect(Value.vector([1, 2]) == ["__type__": "__vector__", "value": [.double(1), .double(2)]])
        #expect(Value.vector([1]).typeOrder == 9)
        let notVectors: [Value] = [
            ["__type__": "__vector__", "value": [1, 2]],  // integers
            ["__type__": "__vector__", "value": [.double(1)], "x": 1],  // a third field
            ["__type__": "__vector__"],  // no value
            ["__type__": "__other__", "value": [.double(1)]],
            ["__type__": "__vector__", "value": .double(1)],
            [.double(1)],
        ]
        for value in notVectors {
            #expect(value.vectorElements == nil, "\(render(value))")
            #expect(!value.isVector)
            #expect(value.typeOrder != 9)
        }
    }

    @Test("vectors sort after arrays and before maps, the shorter first, then element by element")
    func order() {
        let increasing: [Value] = [
            [.double(9), .double(9), .double(9)], .vector([-.infinity]), .vector([-1]), .vector([5]), .vector([.nan]),
            .vector([-.infinity, 0]), .vector([-0.0, 100]), .vector([0, 2]), .vector([0, 100]), .vector([1, 2]),
            .vector([1, 2, 3]), .map([:]), ["value": [.double(1)]],
        ]
        for (index, left) in increasing.enumerated() {
            for right in increasing[(index + 1)...] {
                #expect(Value.compare(left, right) < 0, "\(render(left)) < \(render(right))")
                #expect(Value.compare(right, left) > 0, "\(render(right)) > \(render(left))")
                #expect(
                    compareBytes(OrderedKey.encoding(of: left), OrderedKey.encoding(of: right)) < 0,
                    "encoding of \(render(left)) < \(render(right))")
            }
        }
    }

    @Test("vector elements compare as Java's Double.compare: -0.0 below 0.0, NaN equal to NaN")
    func elementEquality() {
        #expect(Value.vector([-0.0, 2]) != Value.vector([0, 2]))
        #expect(OrderedKey.encoding(of: .vector([-0.0])) != OrderedKey.encoding(of: .vector([0])))
        #expect(Value.vector([.nan]) == Value.vector([-.nan]))
        #expect(Value.vector([.nan]).hashValue == Value.vector([-.nan]).hashValue)
        #expect(OrderedKey.encoding(of: .vector([.nan])) == OrderedKey.encoding(of: .vector([-.nan])))
        // Outside vectors the zeros stay equal.
        #expect(Value.array([.double(-0.0)]) == Value.array([.double(0)]))
    }

    @Test("a vector is a leaf for field paths: its fields are not read, and writing through it replaces it")
    func leafForFieldPaths() throws {
        var fields: MapValue = ["e": .vector([1, 2])]
        #expect(fields.value(at: try FieldPath("e")) == .vector([1, 2]))
        #expect(fields.value(at: try FieldPath("e.value")) == nil)
        #expect(fields.value(at: try FieldPath("e.__type__")) == nil)
        fields.removeValue(at: try FieldPath("e.value"))
        #expect(fields["e"] == .vector([1, 2]))
        fields.setValue(3, at: try FieldPath("e.value"))
        #expect(fields["e"] == ["value": 3])
    }
}
