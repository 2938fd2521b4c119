/// A destination of encoded bytes: `OrderedKey` and `BinaryWriter` (arrays, for bytes that
/// are kept) and `KeyScratch` (a reusable raw buffer, for the many keys and values a commit
/// builds and hands straight to a write batch). The encodings are written once, generic over
/// the sink: the order-preserving key components (`OrderedKey.swift`) and the compact document
/// encoding (`DocumentCodec`).
package protocol ByteSink {
    /// Appends one raw byte.
    mutating func appendByte(_ byte: UInt8)
    /// Appends raw bytes.
    mutating func appendRaw(_ bytes: UnsafeRawBufferPointer)
}
