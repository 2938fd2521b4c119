/// A latitude and longitude in degrees. Ordered by latitude, then longitude.
public struct GeoPoint: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Degrees north, `-90 ... 90`.
    public let latitude: Double
    /// Degrees east, `-180 ... 180`.
    public let longitude: Double

    /// Creates a point, validating the ranges.
    ///
    /// - Throws: `FirestoreError.invalidArgument` when a coordinate is out of range or NaN.
    public init(latitude: Double, longitude: Double) throws {
        guard (-90.0...90.0).contains(latitude) else {
            throw FirestoreError.invalidArgument("Latitude must be in [-90, 90], got \(latitude)")
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw FirestoreError.invalidArgument("Longitude must be in [-180, 180], got \(longitude)")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    public static func < (lhs: GeoPoint, rhs: GeoPoint) -> Bool {
        (lhs.latitude, lhs.longitude) < (rhs.latitude, rhs.longitude)
    }

    public var description: String { "GeoPoint(\(latitude), \(longitude))" }
}
