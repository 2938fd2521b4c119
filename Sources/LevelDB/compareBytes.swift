#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Unsafe code (Docs/Architecture.md, "Where unsafe code lives"): `memcmp` reads `common` bytes,
// no more than either buffer holds.

/// Compares two byte strings the way LevelDB's default comparator does: bytewise, and a proper
/// prefix first. Returns a negative number, zero or a positive number.
public func compareBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
    let common = min(lhs.count, rhs.count)
    if common > 0, let left = lhs.baseAddress, let right = rhs.baseAddress {
        let order = memcmp(left, right, common)
        if order != 0 { return order < 0 ? -1 : 1 }
    }
    return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
}
