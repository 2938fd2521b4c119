import DocumentModel
import DocumentStore
import Testing

/// Invalid queries are refused with Google's emulator's messages (all INVALID_ARGUMENT).
@Suite("Query validation")
struct QueryValidationTests {
    let fixture: StoreFixture

    init() throws {
        fixture = try StoreFixture()
        try fixture.put(["c/a": ["x": 1]])
    }

    func expectRefused(_ query: Query, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = fixture.error(query)
        #expect(error?.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    @Test("rule: in and array-contains-any take 1 to 30 values, not-in 1 to 10")
    func operandCounts() throws {
        let thirtyOne = Value.array((0..<31).map { .integer($0) })
        expectRefused(try fixture.query("c", filter: filter("x", .in, thirtyOne)), "'IN' supports up to 30 comparison values.")
        expectRefused(try fixture.query("c", filter: filter("x", .in, [])), "'IN' requires an non-empty ArrayValue.")
        expectRefused(try fixture.query("c", filter: filter("x", .in, 1)), "'IN' requires an ArrayValue.")
        expectRefused(
            try fixture.query("c", filter: filter("x", .arrayContainsAny, thirtyOne)),
            "'ARRAY_CONTAINS_ANY' supports up to 30 comparison values.")
        expectRefused(
            try fixture.query("c", filter: filter("x", .notIn, .array((0..<11).map { .integer($0) }))),
            "'NOT_IN' supports up to 10 comparison values.")
        #expect(fixture.error(try fixture.query("c", filter: filter("x", .in, .array((0..<30).map { .integer($0) })))) == nil)
    }

    @Test("rule: one negation (!=, not-in, IS_NOT_NAN, IS_NOT_NULL) per query")
    func singleNegation() throws {
        expectRefused(
            try fixture.query("c", filter: and(try filter("x", .notEqual, 1), try filter("y", .isNotNull))),
            "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
    }

    @Test("rule: not-in cannot be combined with in, array-contains-any or OR")
    func notInCombinations() throws {
        let message = "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."
        expectRefused(try fixture.query("c", filter: and(try filter("x", .notIn, [1]), try filter("y", .in, [1]))), message)
        expectRefused(
            try fixture.query("c", filter: or(try filter("x", .notIn, [1]), try filter("y", .equal, 1))), message)
    }

    @Test("rule: at most one array-contains or array-contains-any per disjunction")
    func oneArrayFilterPerDisjunction() throws {
        let message = "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."
        expectRefused(
            try fixture.query("c", filter: and(try filter("a", .arrayContains, 1), try filter("a", .arrayContainsAny, [2]))),
            message)
        #expect(
            fixture.error(
                try fixture.query("c", filter: or(try filter("a", .arrayContains, 1), try filter("a", .arrayContains, 2))))
                == nil)
    }

    @Test("rule: at most 30 disjunctions in normal form (in lists expanded); an AND product over 60 fails early")
    func disjunctionLimits() throws {
        let thirtyOne = QueryFilter.composite(.or, try (0..<31).map { try filter("x", .equal, .integer(Int64($0))) })
        expectRefused(
            try fixture.query("c", filter: thirtyOne),
            "Too many disjunctions after normalization. Result had 31 disjunctions which is more than the maximum of 30")
        let sixByFive = and(
            try filter("x", .in, .array((0..<6).map { .integer($0) })), try filter("y", .in, .array((0..<5).map { .integer($0) })))
        #expect(fixture.error(try fixture.query("c", filter: sixByFive)) == nil)
        let eightByEight = and(
            try filter("x", .in, .array((0..<8).map { .integer($0) })), try filter("y", .in, .array((0..<8).map { .integer($0) })))
        expectRefused(
            try fixture.query("c", filter: eightByEight), "Too many disjunctions after normalization, the maximum is 30")
    }

    @Test("rule: an OR needs at least one filter (an empty AND matches everything)")
    func emptyComposite() throws {
        expectRefused(try fixture.query("c", filter: .composite(.or, [])), "Composite filter must have at least one sub-filter.")
    }

    @Test("rule: orders have no duplicates and nothing after __name__, implicit orders included")
    func orderRules() throws {
        expectRefused(try fixture.query("c", orderBy: [try asc("x"), try desc("x")]), "order by clause cannot contain duplicate fields x")
        expectRefused(
            try fixture.query("c", orderBy: [try asc("__name__"), try asc("x")]), "order by clause cannot contain more fields after the key")
        expectRefused(
            try fixture.query("c", filter: filter("x", .greaterThan, 0), orderBy: [try asc("__name__")]),
            "order by clause cannot contain more fields after the key")
    }

    @Test("rule: a cursor has at most one value per explicit order; a __name__ value must be a reference of the database")
    func cursorRules() throws {
        expectRefused(try fixture.query("c", startAt: QueryCursor(values: [1], before: true)), "Cursor has too many values.")
        expectRefused(
            try fixture.query("c", filter: filter("x", .greaterThan, 0), orderBy: [try asc("x")],
                startAt: QueryCursor(values: [1, try fixture.reference("c/a")], before: true)),
            "Cursor has too many values.")
        expectRefused(
            try fixture.query("c", orderBy: [try asc("__name__")], startAt: QueryCursor(values: ["a"], before: true)),
            "Cursor __key__ value is not a document reference.")
        let elsewhere = Value.reference(try DocumentName(try DatabaseID(project: "other"), "c/a"))
        expectRefused(
            try fixture.query("c", orderBy: [try asc("__name__")], startAt: QueryCursor(values: [elsewhere], before: true)),
            "The cursor key is in a different database than the query")
    }

    @Test("rule: __name__ filters take references of the database and no array or unary operators")
    func nameFilterRules() throws {
        expectRefused(try fixture.query("c", filter: filter("__name__", .equal, "a")), "__key__ filter value must be a Key")
        expectRefused(try fixture.query("c", filter: filter("__name__", .isNull)), "__key__ filter value must be a Key")
        expectRefused(
            try fixture.query("c", filter: filter("__name__", .arrayContains, fixture.reference("c/a"))), "the name __key__ is reserved")
        let elsewhere = Value.reference(try DocumentName(try DatabaseID(project: "other"), "c/a"))
        expectRefused(
            try fixture.query("c", filter: filter("__name__", .equal, elsewhere)),
            "The request was for database 'projects/demo-test/databases/(default)' but was attempting to access database "
                + "'projects/other/databases/(default)'")
    }

    @Test("rule: field paths have at most 20 names, 1,499 bytes and no reserved names")
    func fieldPathRules() throws {
        let deep = try FieldPath(segments: Array(repeating: "a", count: 21))
        expectRefused(try fixture.query("c", filter: .field(deep, .equal, 1)), "paths must have at most 20 elements")
        let long = try FieldPath(segments: [String(repeating: "a", count: 1500)])
        expectRefused(try fixture.query("c", orderBy: [Order(long)]), "property path is longer than 1500 bytes.")
        expectRefused(try fixture.query("c", filter: filter("a.__x__", .equal, 1)), "Invalid reserved name in field path __x__")
        expectRefused(try fixture.query("c", select: [try FieldPath("a.__name__")]), "the name __key__ is reserved")
    }

    @Test("rule: limit and offset are not negative; the parent is the root or a document; ids are valid")
    func scopeRules() throws {
        expectRefused(try fixture.query("c", limit: -1), "limit is negative")
        expectRefused(try fixture.query("c", offset: -1), "offset is negative")
        expectRefused(try fixture.query("__x__"), "Collection id \"__x__\" is invalid because it is reserved.")
        let name = "projects/demo-test/databases/(default)/documents/c"
        expectRefused(try fixture.query("d", parent: "c"), "Document parent name \"\(name)\" lacks \"/\" at index \(name.count).")
    }

    @Test("rule: a query of every collection filters and orders only on __name__, ascending")
    func kindlessRules() throws {
        expectRefused(try fixture.query("", group: true, filter: filter("x", .equal, 1)), "kind is required for filter: x")
        expectRefused(
            try fixture.query("", group: true, orderBy: [try desc("__name__")]),
            "kind is required for all orders except __key__ ascending")
    }
}
