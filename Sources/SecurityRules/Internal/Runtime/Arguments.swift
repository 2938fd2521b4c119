import DocumentModel

/// The evaluated arguments of a built-in call. The first two are held inline, so the common
/// calls (`hasAll(list)`, `get(key, default)`) do not allocate.
struct Arguments: RandomAccessCollection, Sendable {
    private var first: RValue = .null
    private var second: RValue = .null
    private var rest: [RValue] = []
    private(set) var count = 0

    init() {}

    init(_ values: [RValue]) {
        for value in values { append(value) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> RValue {
        switch index {
        case 0: first
        case 1: second
        default: rest[index - 2]
        }
    }

    mutating func append(_ value: RValue) {
        switch count {
        case 0: first = value
        case 1: second = value
        default: rest.append(value)
        }
        count += 1
    }
}

/// Compares strings as Google's runtime does (by UTF-16 code units, so by Unicode scalars and
/// UTF-8 bytes), quickly. Swift's `==` is fast but equates canonically equivalent strings, so a
/// match is confirmed on the bytes (`exactlyEqual`, Unsafe/UnsafeTricks.swift).
@inline(__always)
func rulesStringEqual(_ lhs: String, _ rhs: String) -> Bool {
    let count = lhs.utf8.count
    guard count == rhs.utf8.count, lhs == rhs else { return false }
    return exactlyEqual(lhs, rhs, count: count)
}
