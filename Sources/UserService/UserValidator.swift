import Foundation
import Hearth

/// The validation rules of Docs/specs/004, applied before anything is written. They match what
/// `rules/firestore.rules` accepts, so a valid profile is never refused by the rules for its
/// shape.
enum UserValidator {
    /// The fields `updateUser` may change (with `updatedAt`, which it sets itself).
    static let updatableFields: Set<String> = ["displayName", "photoURL"]
    /// The longest display name, counted as Firestore rules count a string's `size()`: UTF-16 units.
    static let maximumDisplayNameLength = 50

    /// A non-empty document id: no `/`, not `.` or `..`, not `__name__`-shaped.
    static func validateID(_ id: String) throws(UserServiceError) {
        guard !id.isEmpty, !id.utf8.contains(UInt8(ascii: "/")), id != ".", id != "..", id.utf8.count <= 1500,
            !(id.hasPrefix("__") && id.hasSuffix("__"))
        else { throw .invalidUserID }
    }

    /// `local@domain.tld` without spaces: the rules' `^[^@\s]+@[^@\s]+\.[^@\s]+$`, read as the
    /// rules read it, by code point (and refusing every Unicode space, not only ASCII ones).
    static func validateEmail(_ email: String) throws(UserServiceError) {
        let scalars = email.unicodeScalars
        guard let at = scalars.firstIndex(of: "@"), at != scalars.startIndex,
            !scalars.contains(where: isWhitespace)
        else { throw .invalidEmail }
        let domain = scalars[scalars.index(after: at)...]
        guard !domain.contains("@"), domain.dropFirst().dropLast().contains(".") else { throw .invalidEmail }
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    /// 1 to 50 characters, not only spaces.
    static func validateDisplayName(_ name: String) throws(UserServiceError) {
        guard !name.unicodeScalars.allSatisfy(isWhitespace) else {
            throw .validationFailed("displayName must not be empty")
        }
        guard name.utf16.count <= maximumDisplayNameLength else {
            throw .validationFailed("displayName must be at most \(maximumDisplayNameLength) characters, it has \(name.utf16.count)")
        }
    }

    /// An absolute `http` or `https` URL with a host.
    static func validatePhotoURL(_ url: String) throws(UserServiceError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { throw .validationFailed("photoURL must be an http or https URL, got '\(url)'") }
    }

    /// The fields of an update: only `displayName` (a valid name) and `photoURL` (a valid URL,
    /// or `NSNull` to clear it).
    static func validateUpdate(_ data: [String: Any]) throws(UserServiceError) {
        guard !data.isEmpty else { throw .validationFailed("an update must change at least one field") }
        for key in data.keys.sorted() where !updatableFields.contains(key) {
            throw .validationFailed("'\(key)' cannot be updated; only displayName and photoURL can")
        }
        if let name = data["displayName"] {
            guard let name = name as? String else { throw .validationFailed("displayName must be a string") }
            try validateDisplayName(name)
        }
        if let url = data["photoURL"] {
            switch url {
            case let url as String: try validatePhotoURL(url)
            case is NSNull: break
            default: throw .validationFailed("photoURL must be a string or null")
            }
        }
    }
}
