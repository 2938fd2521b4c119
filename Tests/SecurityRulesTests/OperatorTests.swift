import Testing

@testable import SecurityRules

/// Operators, precedence and error absorption; every expected value was observed on Google's
/// emulator (through `debug()` and the denial messages).
@Suite struct OperatorTests {
    @Test(arguments: [
        ("1 == 1 in [true]", "true"),  // `in` binds looser than `==`
        ("1 < 2 in [true]", "true"),
        ("true == 'a' in ['a']", "false"),
        ("'a' in ['a'] == true", "error(Function not found error: Name: [in].)"),
        ("1 in [1] is bool", "error(Function not found error: Name: [in].)"),  // `is` binds tighter than `in`
        ("1 is int == true", "true"),
        ("true == 1 is int", "false"),  // `==` binds tighter than `is`
        ("1 + 2 in [3]", "true"),
        ("true && 1 in [1]", "true"),
        ("true ? 1 : 2 == 2", "1"),
        ("false ? 1 : 2 == 2", "true"),
        ("true || false ? 'x' : 'y'", "'x'"),
        ("true ? false ? 1 : 2 : 3", "2"),
        ("false ? 1 : true ? 2 : 3", "2"),
        ("1 - 2 - 3", "-4"),
        ("12 / 2 / 3", "2"),
        ("2 + 3 * 4", "14"),
        ("10 % 4 * 2", "4"),
        ("true && false || true", "true"),
        ("-'a'.size()", "-1"),
        ("-(-2)", "2"),
        ("!!true", "true"),
        ("3 - - 2", "5"),
        ("1 < 2 < 3", "error(Unsupported operation error. Received: bool < int. Expected: string < string, bytes < bytes, int < int, float < float, duration < duration, timestamp < timestamp, constraint < any, any < constraint.)"),
    ])
    func precedence(expression: String, expected: String) {
        #expect(Fixture.evaluate(expression) == expected)
    }

    @Test(arguments: [
        ("7 / 2", "3"),
        ("-7 / 2", "-3"),
        ("-7 % 3", "-1"),
        ("5 % -3", "2"),
        ("7.5 % 2", "1.5"),
        ("-5.5 % 3", "-2.5"),
        ("1.0 % 0", "NaN"),
        ("1.0 / 0", "Infinity"),
        ("1 + 1.5", "2.5"),
        ("7 / 2.0", "3.5"),
        ("7 % 2.5", "2.0"),
        ("0.1 + 0.2", "0.30000000000000004"),
        ("1 / 0", "error(Divide by zero error.)"),
        ("1 % 0", "error(Divide by zero error.)"),
        ("9223372036854775807 + 1", "error(Integer value is out of the [-9223372036854775808, 9223372036854775807] range.)"),
        ("9223372036854775807 * 2", "error(Integer value is out of the [-9223372036854775808, 9223372036854775807] range.)"),
        ("-9223372036854775807 - 1", "-9223372036854775808"),
        ("(-9223372036854775807 - 1) / -1", "-9223372036854775808"),
        ("(-9223372036854775807 - 1) % -1", "0"),
        ("-(-9223372036854775807 - 1)", "error(Integer value is out of the [-9223372036854775808, 9223372036854775807] range.)"),
        ("'a' + 'b'", "'ab'"),
        ("1 + 'a'", "error(Unsupported operation error. Received: int + string. Expected: int + int, float + float, string + string, duration + duration, duration + timestamp, timestamp + duration.)"),
        ("[1] + [2]", "error(Unsupported operation error. Received: list + list. Expected: int + int, float + float, string + string, duration + duration, duration + timestamp, timestamp + duration.)"),
        ("'a' - 1", "error(Unsupported operation error. Received: string - int. Expected: int - int, float - float, duration - duration, timestamp - duration, timestamp - timestamp.)"),
        ("'a' % 1", "error(Unsupported operation error. Received: string % int. Expected: int % int, float % float.)"),
        ("-'a'", "error(Unsupported operation error. Received: -string. Expected: -int, -float, -duration.)"),
        ("!1", "error(Unsupported operation error. Received: !int. Expected: !bool.)"),
    ])
    func arithmetic(expression: String, expected: String) {
        #expect(Fixture.evaluate(expression) == expected)
    }

    @Test(arguments: [
        ("1 == 1.0", "true"),
        ("1 != 1.0", "false"),
        ("1 == 'a'", "false"),
        ("[1] == [1.0]", "false"),
        ("{'a': 1} == {'a': 1.0}", "false"),
        ("[1, 2].toSet() == [1.0, 2.0].toSet()", "true"),
        ("-0.0 == 0.0", "true"),
        ("float('NaN') == float('NaN')", "false"),
        ("2.0 in [1, 2, 3]", "false"),
        ("-0.0 in [0.0]", "true"),
        ("1 in [1.0].toSet()", "true"),
        ("1 < 1.5", "true"),
        ("2 <= 2.0", "true"),
        ("'abc' < 'abd'", "true"),
        ("b'abc' < b'abd'", "true"),
        ("'a' < 1", "error(Unsupported operation error. Received: string < int. Expected: string < string, bytes < bytes, int < int, float < float, duration < duration, timestamp < timestamp, constraint < any, any < constraint.)"),
        ("[1, 2] < [1, 3]", "error(Unsupported operation error. Received: list < list. Expected: string < string, bytes < bytes, int < int, float < float, duration < duration, timestamp < timestamp, constraint < any, any < constraint.)"),
        ("'\u{FF61}' < '😀'", "false"),  // UTF-16 order: U+FF61 > D83D
    ])
    func comparison(expression: String, expected: String) {
        #expect(Fixture.evaluate(expression) == expected)
    }

    /// `||` and `&&` absorb errors only when the other side decides; `!error` is an error.
    @Test(arguments: [
        ("true || request.resource.data.q", "true"),
        ("request.resource.data.q || true", "true"),
        ("false && request.resource.data.q", "false"),
        ("request.resource.data.q && false", "false"),
        ("request.resource.data.q && true", "error(Property q is undefined on object.)"),
        ("true && request.resource.data.q", "error(Property q is undefined on object.)"),
        ("request.resource.data.p || request.resource.data.q", "error(Property p is undefined on object.)"),
        ("request.resource.data.p && request.resource.data.q", "error(Property p is undefined on object.)"),
        ("!request.resource.data.q", "error(Property q is undefined on object.)"),
        ("true && 1", "error(Type error. Received: [int] Expected: [bool].)"),
        ("1 && false", "false"),
        ("1 || true", "true"),
        ("false || 1", "error(Type error. Received: [int] Expected: [bool].)"),
        ("null || true", "true"),
        ("1 ? 2 : 3", "error(Type error. Received: [int] Expected: [bool].)"),
        ("false ? request.resource.data.q : 2", "2"),
        ("true ? request.resource.data.q : 2", "error(Property q is undefined on object.)"),
        ("foo == 1", "error(Null value error.)"),
    ])
    func errorAbsorption(expression: String, expected: String) {
        #expect(Fixture.evaluate(expression) == expected)
    }

    @Test(arguments: [
        ("1 is int", "true"), ("1 is number", "true"), ("1.5 is number", "true"), ("1 is float", "false"),
        ("1.0 is int", "false"), ("'a' is string", "true"), ("b'a' is bytes", "true"), ("{} is map", "true"),
        ("{'a': 1}.diff({}) is map_diff", "true"), ("/a is path", "true"), ("request.time is timestamp", "true"),
        ("duration.value(1, 's') is duration", "true"), ("latlng.value(1, 2) is latlng", "true"),
        ("true is bool", "true"), ("[1].toSet() is set", "false"), ("[1] is list", "true"),
        ("request.resource.data.n is null", "load error: An unsupported type identifier was used with the 'is' operator. Received null. Expected one of bool,bytes,constraint,duration,float,int,latlng,list,vector,set,number,map,string,timestamp,path,map_diff"),
    ])
    func typeChecks(expression: String, expected: String) {
        #expect(Fixture.evaluate(expression).hasPrefix(expected.hasPrefix("load error") ? "load error" : expected))
    }
}
