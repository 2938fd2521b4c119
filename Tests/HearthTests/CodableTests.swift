import Foundation
import Hearth
import Testing

struct Address: Codable, Equatable {
    var city: String
    var zip: String?
}

struct User: Codable, Equatable {
    enum Role: String, Codable { case admin, member }

    @DocumentID var id: String?
    var name: String
    var age: Int
    var score: Double
    var role: Role
    var tags: [String]
    var address: Address
    var nickname: String?
    @ExplicitNull var bio: String?
    @ServerTimestamp var createdAt: Timestamp?
    var birthday: Date
    var avatar: Data
    var location: GeoPoint
}

struct Post: Codable {
    @DocumentID var reference: DocumentReference?
    var author: DocumentReference
    @ServerTimestamp var postedAt: Date?
}

@Suite("Codable: Firestore.Encoder, Firestore.Decoder and the property wrappers")
struct CodableTests {
    static func alice() throws -> User {
        User(
            id: "ignored", name: "Alice", age: 30, score: 4.5, role: .admin, tags: ["a", "b"],
            address: Address(city: "Paris", zip: nil), nickname: nil, bio: nil, createdAt: nil,
            birthday: Date(timeIntervalSince1970: 86_400), avatar: Data([0xFF, 0x00]),
            location: try GeoPoint(latitude: 1, longitude: 2))
    }

    @Test func encoderFollowsTheSDK() throws {
        let data = try Firestore.Encoder().encode(try CodableTests.alice())
        #expect(data["id"] == nil, "@DocumentID is not a field")
        #expect(data["nickname"] == nil, "nil optionals are left out")
        #expect(data["bio"] is NSNull, "@ExplicitNull writes null")
        #expect(data["createdAt"] is FieldValue, "a nil @ServerTimestamp asks for the server's time")
        #expect(data["role"] as? String == "admin")
        #expect(data["age"] as? Int == 30)
        #expect((data["birthday"] as? Timestamp)?.seconds == 86_400)
        #expect(data["avatar"] as? Data == Data([0xFF, 0x00]))
        #expect((data["address"] as? [String: Any])?["city"] as? String == "Paris")
        #expect((data["address"] as? [String: Any])?.keys.contains("zip") == false)
        #expect(throws: EncodingError.self) { _ = try Firestore.Encoder().encode([1, 2]) }
    }

    @Test func decoderReportsMissingAndMistypedFields() throws {
        let decoder = Firestore.Decoder()
        let address = try decoder.decode(Address.self, from: ["city": "Lyon"])
        #expect(address == Address(city: "Lyon", zip: nil))
        #expect(throws: DecodingError.self) { _ = try decoder.decode(Address.self, from: ["zip": "1"]) }
        #expect(throws: DecodingError.self) { _ = try decoder.decode(Address.self, from: ["city": 3]) }
        struct Numbers: Decodable { var small: Int8; var whole: Int; var real: Double }
        let numbers = try decoder.decode(Numbers.self, from: ["small": 7, "whole": 2.0, "real": 3])
        #expect(numbers.small == 7 && numbers.whole == 2 && numbers.real == 3)
        #expect(throws: DecodingError.self) { _ = try decoder.decode(Numbers.self, from: ["small": 300, "whole": 1, "real": 1]) }
        #expect(throws: DecodingError.self) { _ = try decoder.decode(Numbers.self, from: ["small": 1, "whole": 1.5, "real": 1]) }
    }

    @Test func timestampsAndGeoPointsUseKeyedFormsElsewhere() throws {
        let time = try Timestamp(seconds: 5, nanoseconds: 6)
        let json = try JSONEncoder().encode(time)
        #expect(try JSONDecoder().decode(Timestamp.self, from: json) == time)
        let point = try GeoPoint(latitude: 3, longitude: 4)
        #expect(try JSONDecoder().decode(GeoPoint.self, from: try JSONEncoder().encode(point)) == point)
        #expect(throws: EncodingError.self) { _ = try JSONEncoder().encode(FieldValue.serverTimestamp()) }
    }

    @Test(arguments: BackendKind.allCases)
    func roundTripThroughTheDatabase(_ kind: BackendKind) async throws {
        try await TestDatabase.with(kind) { test in
            let ref = test.db.collection("users").document("alice")
            try await ref.setData(from: try CodableTests.alice())
            let user = try await ref.getDocument(as: User.self)
            var expected = try CodableTests.alice()
            expected.id = "alice"
            expected.createdAt = user.createdAt
            #expect(user == expected)
            let snapshot = try await ref.getDocument()
            #expect(user.createdAt == snapshot.updateTime, "the server set the commit time")
            #expect(snapshot.data()?.keys.contains("bio") == true)

            let added = try await test.db.collection("posts").addDocument(from: Post(author: ref))
            let post = try await added.getDocument().data(as: Post.self)
            #expect(post.reference == added)
            #expect(post.author == ref)
            #expect(post.postedAt != nil)

            try await ref.setData(from: ["age": 31], merge: true)
            #expect(try await ref.getDocument(as: User.self).age == 31)

            let batch = test.db.batch()
            try batch.setData(from: Address(city: "Rome"), forDocument: test.db.document("addresses/r"))
            try await batch.commit()
            try await test.db.runTransaction { transaction in
                try transaction.setData(from: Address(city: "Oslo", zip: "0150"), forDocument: test.db.document("addresses/o"))
            }
            #expect(try await test.db.document("addresses/o").getDocument(as: Address.self).zip == "0150")
            await #expect(throws: DecodingError.self) { _ = try await test.db.document("users/none").getDocument(as: User.self) }
        }
    }
}
