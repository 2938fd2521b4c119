import DocumentModel
import Testing

@testable import SecurityRules

/// Queries are judged from their constraints, not from the documents that exist; each
/// expectation here was observed on Google's emulator.
@Suite struct ListQueryTests {
    func F(_ field: String, _ op: RulesQuery.FieldOperator, _ value: Value) -> RulesQuery.Filter {
        .field(try! FieldPath(field), op, value)
    }

    func allowed(_ condition: String, _ filter: RulesQuery.Filter?, limit: Int64? = nil) throws -> Bool {
        let source = Fixture.rules("    match /u/{id} { allow list: if \(condition); }")
        return try Fixture.decide(source, Fixture.request(.list, "u", query: RulesQuery(filter: filter, limit: limit)))
            .allowed
    }

    @Test func equalityFiltersFixTheField() throws {
        #expect(try allowed("resource.data.x == 1", F("x", .equal, 1)))
        #expect(try !allowed("resource.data.x == 1", F("x", .equal, 2)))
        #expect(try allowed("resource.data.x == 1.0", F("x", .equal, 1)))
        #expect(try allowed("resource.data.x != 2", F("x", .equal, 1)))
        #expect(try allowed("resource.data.x > 0", F("x", .equal, 1)))
        #expect(try allowed("resource.data.x in [1, 2, 3]", F("x", .equal, 2)))
        #expect(try allowed("resource.data.x is string", F("x", .equal, "s")))
        #expect(try allowed("resource.data.x.size() > 0", F("x", .equal, "s")))
        #expect(try allowed("resource.data.m.k == 1", F("m.k", .equal, 1)))
        #expect(try allowed("resource.data.x == null", .unary(try FieldPath("x"), .isNull)))
    }

    /// Measured on Google's emulator (`match /settings/{uid}`, a query by bob): a disjunct
    /// constraining `__name__` to one document of the collection binds the path variables.
    @Test func nameEqualityBindsPathVariables() throws {
        let source = Fixture.rules("    match /settings/{uid} { allow read: if request.auth.uid == uid; }")
        func decide(_ filter: RulesQuery.Filter?) throws -> Bool {
            try Fixture.decide(source, Fixture.request(.list, "settings", uid: "bob", query: RulesQuery(filter: filter)))
                .allowed
        }
        let bob = Value.reference(try DocumentName(Fixture.database, "settings/bob"))
        let alice = Value.reference(try DocumentName(Fixture.database, "settings/alice"))
        #expect(try decide(F("__name__", .equal, bob)))
        #expect(try !decide(F("__name__", .equal, alice)))
        #expect(try decide(F("__name__", .in, [bob])))
        #expect(try !decide(F("__name__", .in, [bob, alice])))
        #expect(try decide(.and([F("__name__", .equal, bob), F("x", .equal, 1)])))
        #expect(try !decide(.or([F("__name__", .equal, bob), F("x", .equal, 1)])), "the other disjunct binds nothing")
        #expect(try !decide(nil))
        let nested = Value.reference(try DocumentName(Fixture.database, "users/bob/settings/bob"))
        #expect(try !decide(F("__name__", .equal, nested)), "a document of another collection binds nothing")
    }

    @Test func ownerRules() throws {
        let rule = "resource.data.owner == request.auth.uid"
        #expect(try allowed(rule, F("owner", .equal, "alice")))
        #expect(try !allowed(rule, F("owner", .equal, "bob")))
        #expect(try !allowed(rule, nil))
        #expect(try allowed(rule, F("owner", .in, ["alice"])))
        #expect(try !allowed(rule, F("owner", .in, ["alice", "bob"])))
        #expect(try !allowed(rule, F("owner", .notEqual, "bob")))
    }

    @Test func inFiltersAreJudgedValueByValue() throws {
        #expect(try !allowed("resource.data.x < 2", F("x", .in, [1, 2])))
        #expect(try allowed("resource.data.x < 5", F("x", .in, [1, 2])))
        #expect(try allowed("resource.data.x == 1 || resource.data.x == 2", F("x", .in, [1, 2])))
        #expect(try allowed("resource.data.x in [1, 2, 3]", F("x", .in, [1, 2])))
        #expect(try !allowed("resource.data.x in [1]", F("x", .in, [1, 2])))
    }

    @Test func rangesProveOnlyWhatTheyImply() throws {
        #expect(try allowed("resource.data.x > 0", F("x", .greaterThan, 0)))
        #expect(try allowed("resource.data.x > 0", F("x", .greaterThan, 1)))
        #expect(try !allowed("resource.data.x > 0", F("x", .greaterThanOrEqual, 0)))
        #expect(try allowed("resource.data.x >= 0", F("x", .greaterThanOrEqual, 0)))
        #expect(try allowed("resource.data.x < 10", .and([F("x", .greaterThan, 0), F("x", .lessThan, 5)])))
        #expect(try !allowed("resource.data.x < 10", F("x", .greaterThan, 0)))
        #expect(try !allowed("resource.data.x < 1", F("x", .greaterThan, 5)))
        #expect(try !allowed("resource.data.x == 7", F("x", .greaterThan, 5)))
        #expect(try allowed("resource.data.x != 2", F("x", .greaterThan, 5)))
        #expect(try allowed("resource.data.x != null", F("x", .greaterThan, 5)))
        #expect(try !allowed("resource.data.x is int", F("x", .greaterThan, 5)))
        #expect(try allowed("resource.data.x != 1", F("x", .notEqual, 1)))
        #expect(try !allowed("resource.data.x != 2", F("x", .notEqual, 1)))
        #expect(try allowed("resource.data.x != 1", F("x", .notIn, [1, 2])))
        #expect(try !allowed("resource.data.x != 3", F("x", .notIn, [1, 2])))
    }

    @Test func disjunctionsMustEachBeAllowed() throws {
        #expect(try allowed("resource.data.x == 1", .or([F("x", .equal, 1), F("x", .equal, 1)])))
        #expect(try !allowed("resource.data.x == 1", .or([F("x", .equal, 1), F("y", .equal, 1)])))
        #expect(try allowed("resource.data.x == 1 || resource.data.y == 1", .or([F("x", .equal, 1), F("y", .equal, 1)])))
        #expect(try allowed("resource.data.x == 1", .and([F("x", .equal, 1), F("y", .equal, 2)])))
    }

    @Test func arrayContains() throws {
        #expect(try allowed("'a' in resource.data.tags", F("tags", .arrayContains, "a")))
        #expect(try allowed("resource.data.tags.hasAny(['a'])", F("tags", .arrayContains, "a")))
        #expect(try !allowed("resource.data.tags.hasAny(['b'])", F("tags", .arrayContains, "a")))
        #expect(try !allowed("resource.data.tags.hasAll(['a'])", F("tags", .arrayContains, "a")))
        #expect(try !allowed("'a' in resource.data.tags", F("tags", .arrayContainsAny, ["a", "b"])))
        #expect(try allowed("resource.data.tags.hasAny(['a', 'b'])", F("tags", .arrayContainsAny, ["a", "b"])))
    }

    @Test func limitOffsetAndOrder() throws {
        #expect(try allowed("request.query.limit <= 10", nil, limit: 5))
        #expect(try !allowed("request.query.limit <= 10", nil, limit: 20))
        #expect(try !allowed("request.query.limit <= 10", nil))
        let source = Fixture.rules("    match /u/{id} { allow list: if request.query.offset == 2 && request.query.orderBy.x == 'DESC'; }")
        let query = RulesQuery(orderBy: [.init(try FieldPath("x"), .descending)], offset: 2)
        #expect(try Fixture.decide(source, Fixture.request(.list, "u", query: query)).allowed)
    }

    @Test func messagesOfUnprovableConstraints() throws {
        let source = Fixture.rules("    match /u/{id} { allow list: if resource.data.x > 0; }")
        let decision = try Fixture.decide(
            source, Fixture.request(.list, "u", query: RulesQuery(filter: F("x", .greaterThanOrEqual, 0))))
        #expect(decision.message == "\nevaluation error at L4:36 for 'list' @ L4")
        let unfiltered = try Fixture.decide(source, Fixture.request(.list, "u", query: RulesQuery()))
        #expect(unfiltered.message == "\nProperty x is undefined on object. for 'list' @ L4")
    }
}
