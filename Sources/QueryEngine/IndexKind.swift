import DocumentModel

/// The kind of an index entry: the byte after the field path in an index key.
package enum IndexKind: UInt8 {
    // 0x00 was the per-document entry of formats 2 to 4.
    /// The field's whole value (also for maps, and for each value inside a map at its path).
    case value = 0x01
    /// One distinct element of an array field, for `array-contains` and `array-contains-any`.
    case element = 0x02
}
