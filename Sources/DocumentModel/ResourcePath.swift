/// A slash-separated path of collection and document ids inside a database, such as
/// `users/alice/settings/theme`. An even number of segments names a document, an odd number a
/// collection; the empty path is the database root.
///
/// Paths are ordered segment by segment, so a parent sorts before its children, as Firestore
/// orders document names: numeric document ids (`__id<int64>__`, see `numericID(_:)`) come
/// first, by their integer value, then every other id by its UTF-8 bytes.
public struct ResourcePath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The ids, in order.
    public let segments: [String]

    /// The database root.
    public static let root = ResourcePath(validatedSegments: [])

    /// Creates a path from ids, validating each with Firestore's id rules.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the first invalid id.
    public init(segments: [String]) throws {
        guard segments.count <= ResourcePath.maxSegments else {
            throw FirestoreError.invalidArgument("Key path is too long. Cannot exceed 100 elements.")
        }
        for index in segments.indices {
            try ResourcePath.validate(id: segments[index], in: Array(segments[...index]))
        }
        self.segments = segments
    }

    /// Parses `users/alice`. Leading and trailing slashes are not allowed.
    ///
    /// - Throws: `FirestoreError.invalidArgument` for empty segments and invalid ids.
    public init(_ path: String) throws {
        if path.isEmpty {
            self = .root
            return
        }
        // Split on the scalar '/', not on Characters: an id may begin with a combining mark,
        // which Swift joins to the preceding '/' in one Character.
        let parts = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw FirestoreError.invalidArgument("Invalid path \"\(path)\": it contains an empty segment")
        }
        try self.init(segments: parts)
    }

    init(validatedSegments: [String]) {
        segments = validatedSegments
    }

    /// The most collection and document ids a path may have (100 collection/document pairs).
    package static let maxSegments = 200

    /// Checks one collection or document id against Firestore's rules: not empty, at most 1,500
    /// bytes, no `/`, not `.` or `..`, and not of the reserved form `__.+__` (except numeric
    /// document ids, `__id<int64>__` with the integer written canonically and not zero).
    /// Messages follow Google's emulator.
    ///
    /// - Parameter path: the path the id ends, which tells a collection id (odd position) from a
    ///   document id and is shown in messages.
    package static func validate(id: String, in path: [String] = []) throws {
        let bytes = id.utf8
        let isCollection = path.count % 2 == 1
        let shown = path.isEmpty ? id : path.joined(separator: "/")
        if bytes.isEmpty {
            throw FirestoreError.invalidArgument("Invalid path \"\(shown)\": ids must not be empty")
        }
        if bytes.count > 1500 {
            throw FirestoreError.invalidArgument(
                "The key path element \(isCollection ? "kind" : "name") is longer than 1500 bytes "
                    + "(\(bytes.count) bytes in \"\(shown.prefix(100))...\").")
        }
        if bytes.contains(UInt8(ascii: "/")) {
            throw FirestoreError.invalidArgument("Invalid id \"\(id)\": ids must not contain \"/\"")
        }
        if id == "." || id == ".." {
            throw FirestoreError.invalidArgument(
                "Path \"\(shown)\" contains a \(isCollection ? "collection id" : "resource id") \"\(id)\".")
        }
        if isReserved(id) {
            if !isCollection, hasNumericIDForm(id) {
                guard numericID(id) != nil else {
                    throw FirestoreError.invalidArgument(
                        "Resource id \"\(id)\" is invalid because it is not a 64 bit integer.")
                }
                return
            }
            throw FirestoreError.invalidArgument(
                "\(isCollection ? "Collection id" : "Resource id") \"\(id)\" is invalid because it is reserved.")
        }
    }

    /// Whether `name` has the reserved form `__.+__`: two underscores, at least one character,
    /// two underscores (so `__` and `____` are ordinary names).
    package static func isReserved(_ name: String) -> Bool {
        // Reads the UTF-8 view in place: this runs for every field name of every write.
        let bytes = name.utf8
        guard bytes.count >= 5, bytes.first == 0x5F else { return false }
        var front = bytes.makeIterator()
        guard front.next() == 0x5F, front.next() == 0x5F else { return false }
        var back = bytes.reversed().makeIterator()
        return back.next() == 0x5F && back.next() == 0x5F
    }

    /// The integer of a numeric document id, or `nil` for every other id.
    ///
    /// A numeric id is `__id`, an integer in 64 bits, then `__`. The integer is written as
    /// Google's emulator accepts it: an optional `-`, then decimal digits without leading zeros,
    /// and not zero (`__id0__`, `__id01__` and `__id-0__` are reserved names, not numbers).
    /// Firestore sorts numeric ids before every other id, by their value.
    package static func numericID(_ id: String) -> Int64? {
        guard hasNumericIDForm(id) else { return nil }
        return Int64(id.dropFirst(4).dropLast(2))
    }

    /// The spelling of a numeric id for `value` (not zero): `__id42__`.
    package static func numericIDSpelling(_ value: Int64) -> String { "__id\(value)__" }

    /// Whether `id` is `__id`, an optional `-`, a non-zero digit and more digits, then `__`
    /// (whatever the number's size).
    private static func hasNumericIDForm(_ id: String) -> Bool {
        let bytes = id.utf8
        // Rejects other ids at the first byte: this runs for every segment compared or encoded.
        guard bytes.count >= 7, bytes.first == UInt8(ascii: "_") else { return false }
        var index = bytes.startIndex
        for expected in "__id".utf8 {
            guard bytes[index] == expected else { return false }
            index = bytes.index(after: index)
        }
        let end = bytes.index(bytes.endIndex, offsetBy: -2)
        guard bytes[end] == UInt8(ascii: "_"), bytes[bytes.index(after: end)] == UInt8(ascii: "_") else { return false }
        if bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
        guard index < end, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) else { return false }
        return bytes[index..<end].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Whether the path names a document (a non-empty, even number of segments).
    public var isDocument: Bool { !segments.isEmpty && segments.count % 2 == 0 }

    /// Whether the path names a collection (an odd number of segments).
    public var isCollection: Bool { segments.count % 2 == 1 }

    /// The last id, or `""` for the root.
    public var lastSegment: String { segments.last ?? "" }

    /// The path without its last segment.
    public var parent: ResourcePath? {
        segments.isEmpty ? nil : ResourcePath(validatedSegments: Array(segments.dropLast()))
    }

    /// The path with `id` appended.
    public func appending(_ id: String) throws -> ResourcePath {
        try ResourcePath.validate(id: id, in: segments + [id])
        return ResourcePath(validatedSegments: segments + [id])
    }

    /// Whether `self` is `other` or lies below it.
    public func hasPrefix(_ other: ResourcePath) -> Bool {
        other.segments.count <= segments.count
            && zip(other.segments, segments).allSatisfy { utf8Equal($0, $1) }
    }

    /// `users/alice`.
    public var description: String { segments.joined(separator: "/") }

    public static func < (lhs: ResourcePath, rhs: ResourcePath) -> Bool {
        for (left, right) in zip(lhs.segments, rhs.segments) {
            let order = compareIDs(left, right)
            if order != 0 { return order < 0 }
        }
        return lhs.segments.count < rhs.segments.count
    }

    public static func == (lhs: ResourcePath, rhs: ResourcePath) -> Bool {
        lhs.segments.count == rhs.segments.count
            && zip(lhs.segments, rhs.segments).allSatisfy { utf8Equal($0, $1) }
    }

    public func hash(into hasher: inout Hasher) {
        // The same bytes as `==` compares, fed to the hasher in one call per segment: document
        // names are dictionary keys on the commit path, where hashing byte by byte showed up.
        for segment in segments {
            var segment = segment
            segment.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            }
        }
    }
}

/// Compares two collection or document ids in Firestore's order: negative, zero or positive.
/// Numeric document ids come first, by value; other ids follow, by their UTF-8 bytes.
package func compareIDs(_ lhs: String, _ rhs: String) -> Int {
    switch (ResourcePath.numericID(lhs), ResourcePath.numericID(rhs)) {
    case (let left?, let right?): left == right ? 0 : (left < right ? -1 : 1)
    case (.some, nil): -1
    case (nil, .some): 1
    case (nil, nil): compareUTF8(lhs, rhs)
    }
}

/// Compares two strings by their UTF-8 bytes, Firestore's string order: negative, zero or positive.
package func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
    var left = lhs
    var right = rhs
    return left.withUTF8 { leftBytes in
        right.withUTF8 { rightBytes in
            let common = Swift.min(leftBytes.count, rightBytes.count)
            for index in 0..<common where leftBytes[index] != rightBytes[index] {
                return leftBytes[index] < rightBytes[index] ? -1 : 1
            }
            return leftBytes.count == rightBytes.count ? 0 : (leftBytes.count < rightBytes.count ? -1 : 1)
        }
    }
}
