import DocumentModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// match is confirmed on the bytes: for small strings by their 16-byte representation (equal
/// bytes and length give equal bits), for others with `memcmp` on their contiguous storage.
@inline(__always)
func rulesStringEqual(_ lhs: String, _ rhs: String) -> Bool {
    let count = lhs.utf8.count
    guard count == rhs.utf8.count, lhs == rhs else { return false }
    return exactlyEqual(lhs, rhs, count: count)
}

/// Whether two strings have the same representation: then they are equal (small strings hold
/// their bytes and length; others, the same storage and length). Unequal representations
/// prove nothing.
@inline(__always)
func identicalRepresentation(_ lhs: String, _ rhs: String) -> Bool {
    unsafeBitCast(lhs, to: (UInt64, UInt64).self) == unsafeBitCast(rhs, to: (UInt64, UInt64).self)
}

@usableFromInline
func exactlyEqual(_ lhs: String, _ rhs: String, count: Int) -> Bool {
    if count <= 15 {
        let left = unsafeBitCast(lhs, to: (UInt64, UInt64).self)
        let right = unsafeBitCast(rhs, to: (UInt64, UInt64).self)
        if left == right { return true }
    } else if let equal = lhs.utf8.withContiguousStorageIfAvailable({ left in
        rhs.utf8.withContiguousStorageIfAvailable { right in
            memcmp(left.baseAddress!, right.baseAddress!, count) == 0
        }
    }), let equal {
        return equal
    }
    return lhs.utf8.elementsEqual(rhs.utf8)
}
