/// A reusable byte buffer that keys and values (`ByteSink`) are built in, for code that builds
/// many and hands each one on at once instead of keeping it: a commit's document and index
/// entries go from here straight into the write batch, without an array each.
///
/// ```swift
/// var scratch = KeyScratch()
/// scratch.appendString("users")
/// scratch.withBytes { batch.put($0, []) }
/// scratch.truncate(to: 0)
/// ```
///
/// - Important: Not thread-safe (it may be handed between threads, like a write batch, but only
///   one owner may build in it at a time).
package final class KeyScratch: ByteSink, @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var pointer: UnsafeMutableRawPointer
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    @exclusivity(unchecked) @usableFromInline var length = 0

    /// The number of bytes so far.
    @inlinable package var count: Int { length }

    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        pointer = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { pointer.deallocate() }

    /// Appends one raw byte.
    @inlinable package func appendByte(_ byte: UInt8) {
        if length == capacity { grow(toHold: length + 1) }
        pointer.storeBytes(of: byte, toByteOffset: length, as: UInt8.self)
        length += 1
    }

    /// Appends raw bytes.
    @inlinable package func appendRaw(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        if length + bytes.count > capacity { grow(toHold: length + bytes.count) }
        (pointer + length).copyMemory(from: source, byteCount: bytes.count)
        length += bytes.count
    }

    /// Drops every byte after the first `count`.
    @inlinable package func truncate(to count: Int) {
        precondition(count >= 0 && count <= length, "KeyScratch.truncate(to:) beyond its bytes")
        length = count
    }

    /// Calls `body` with the bytes so far, valid only during the call.
    @inlinable package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    /// The bytes so far, copied into an array.
    package var bytes: [UInt8] { withBytes { Array($0) } }

    @usableFromInline func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        grown.copyMemory(from: pointer, byteCount: length)
        pointer.deallocate()
        pointer = grown
        capacity = newCapacity
    }
}
