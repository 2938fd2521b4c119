/// A slash-separated path of collection and document ids inside a database, such as
/// `users/alice/settings/theme`. An even number of segments names a document, an odd number a
/// collection; the empty path is the database root.
///
/// Paths are ordered segment by segment, each segment by its UTF-8 bytes, so a parent sorts
/// before its children, as Firestore orders document names.
public struct ResourcePath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The ids, in order.
    public let segments: [String]

    /// The database root.
    public static let root = ResourcePath(validatedSegments: [])

    /// Creates a path from ids, validating each with Firestore's id rules.
    ///
    /// - Throws: `FirestoreError.invalidArgument` naming the first invalid id.
    public init(segments: [String]) throws {
        for segment in segments { try ResourcePath.validate(id: segment, in: segments) }
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
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw FirestoreError.invalidArgument("Invalid path '\(path)': it contains an empty segment")
        }
        try self.init(segments: parts)
    }

    init(validatedSegments: [String]) {
        segments = validatedSegments
    }

    /// Checks one collection or document id against Firestore's rules: not empty, at most 1,500
    /// bytes, no `/`, not `.` or `..`, and not of the reserved form `__.*__`.
    public static func validate(id: String, in path: [String] = []) throws {
        let bytes = id.utf8
        let shown = path.isEmpty ? id : path.joined(separator: "/")
        if bytes.isEmpty {
            throw FirestoreError.invalidArgument("Invalid path '\(shown)': ids must not be empty")
        }
        if bytes.count > 1500 {
            throw FirestoreError.invalidArgument(
                "Invalid id in '\(shown.prefix(200))...': an id must be at most 1500 bytes, it has \(bytes.count)")
        }
        if bytes.contains(UInt8(ascii: "/")) {
            throw FirestoreError.invalidArgument("Invalid id '\(id)': ids must not contain '/'")
        }
        if id == "." || id == ".." {
            throw FirestoreError.invalidArgument("Invalid id '\(id)' in '\(shown)': '.' and '..' are not allowed")
        }
        if isReserved(id) {
            throw FirestoreError.invalidArgument(
                "Invalid id '\(id)' in '\(shown)': ids of the form __.*__ are reserved")
        }
    }

    /// Whether `name` has the reserved form `__.*__`.
    public static func isReserved(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count >= 4 && bytes[0] == 0x5F && bytes[1] == 0x5F && bytes[bytes.count - 1] == 0x5F
            && bytes[bytes.count - 2] == 0x5F
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
            && zip(other.segments, segments).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    /// `users/alice`.
    public var description: String { segments.joined(separator: "/") }

    public static func < (lhs: ResourcePath, rhs: ResourcePath) -> Bool {
        for (left, right) in zip(lhs.segments, rhs.segments) {
            let order = compareUTF8(left, right)
            if order != 0 { return order < 0 }
        }
        return lhs.segments.count < rhs.segments.count
    }

    public static func == (lhs: ResourcePath, rhs: ResourcePath) -> Bool {
        lhs.segments.count == rhs.segments.count
            && zip(lhs.segments, rhs.segments).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    public func hash(into hasher: inout Hasher) {
        for segment in segments {
            hasher.combine(segment.utf8.count)
            for byte in segment.utf8 { hasher.combine(byte) }
        }
    }
}

/// Compares two strings by their UTF-8 bytes, Firestore's string order: negative, zero or positive.
public func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
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
