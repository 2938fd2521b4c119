import Foundation

/// Whether two strings have the same UTF-8 bytes: Firestore's string equality.
///
/// Swift's `==` on `String` treats canonically equivalent strings (`"é"` as one code point or
/// as `e` and a combining accent) as equal; Firestore does not. This compares the bytes, and
/// quickly: native strings expose their UTF-8 storage directly.
@inlinable
package func utf8Equal(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    var left = lhs
    var right = rhs
    return left.withUTF8 { leftBytes in
        right.withUTF8 { rightBytes in
            leftBytes.count == 0 || memcmpEqual(leftBytes, rightBytes)
        }
    }
}

/// Whether two non-empty byte buffers of the same length hold the same bytes.
@usableFromInline
func memcmpEqual(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
    lhs.count == rhs.count && memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0
}

extension Hasher {
    /// Feeds a string's UTF-8 bytes (and their count) in one call, consistent with `utf8Equal`.
    @inlinable
    package mutating func combineUTF8(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            combine(bytes.count)
            combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}
