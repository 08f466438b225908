/// A latitude and longitude in degrees.
public struct GeoPoint: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    /// Creates a point, refusing latitudes outside -90...90 and longitudes outside -180...180.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidGeoPoint``.
    public init(latitude: Double, longitude: Double) throws(APIError) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw APIError(.invalidGeoPoint, "Invalid GeoPoint values: latitude must be in [-90, 90] "
                + "and longitude in [-180, 180], got (\(latitude), \(longitude)).")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A point as a client holds it, out of range or not: a client sends what it was given and lets the server refuse
    /// it (``init(latitude:longitude:)`` is what a server decodes with).
    public init(unvalidatedLatitude latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
