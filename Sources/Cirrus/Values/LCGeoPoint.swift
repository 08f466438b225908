/// A location, sent as `{"__type":"GeoPoint","latitude":…,"longitude":…}`.
public final class LCGeoPoint: LCValue, Hashable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double = 0, longitude: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A distance for ``LCQuery/Constraint/locatedNear(_:from:to:)``.
    public struct Distance: Sendable, Hashable {
        public let value: Double
        public let unit: Unit

        /// The unit of a distance.
        public enum Unit: String, Sendable {
            case mile = "Miles"
            case kilometer = "Kilometers"
            case radian = "Radians"
        }

        public init(value: Double, unit: Unit) {
            self.value = value
            self.unit = unit
        }
    }

    /// Whether the point is on the globe: latitude within -90…90 and longitude within -180…180 (seed 003: points outside
    /// are errors). An object refuses to ``LCObject/set(_:value:)`` one that is not.
    public var isValid: Bool {
        (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }

    public var description: String { "(\(latitude), \(longitude))" }

    public static func == (lhs: LCGeoPoint, rhs: LCGeoPoint) -> Bool {
        lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(latitude)
        hasher.combine(longitude)
    }
}
