#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Spherical distance and point-in-polygon, shared by the SQLite functions that geo queries call and by
/// in-memory evaluation of the same conditions.
extension GeoPoint {
    /// The great-circle distance to `other`, in radians of arc (multiply by an Earth radius for a length).
    public func distance(to other: GeoPoint) -> Double {
        Self.arcDistance(latitude: latitude, longitude: longitude, toLatitude: other.latitude, longitude: other.longitude)
    }

    /// The great-circle distance between two points given in degrees, in radians of arc, by the haversine
    /// formula (accurate at small distances, where queries need it most).
    public static func arcDistance(latitude: Double, longitude: Double, toLatitude otherLatitude: Double, longitude otherLongitude: Double) -> Double {
        let degree = Double.pi / 180
        let halfLatitude = sin((otherLatitude - latitude) * degree / 2)
        let halfLongitude = sin((otherLongitude - longitude) * degree / 2)
        let haversine = halfLatitude * halfLatitude + cos(latitude * degree) * cos(otherLatitude * degree) * halfLongitude * halfLongitude
        return 2 * asin(min(1, haversine.squareRoot()))
    }

    /// Whether the point lies inside `polygon` or on its boundary.
    ///
    /// As MongoDB's `$polygon` (legacy coordinates) and PostgreSQL's `point <@ polygon`, the test is planar:
    /// longitude is x, latitude is y, and the last vertex joins the first.
    public func isInside(polygon: [GeoPoint]) -> Bool {
        Self.isInside(latitude: latitude, longitude: longitude, polygon: polygon.map { ($0.latitude, $0.longitude) })
    }

    /// ``isInside(polygon:)`` on raw degrees: vertices are `(latitude, longitude)` pairs.
    public static func isInside(latitude: Double, longitude: Double, polygon: [(latitude: Double, longitude: Double)]) -> Bool {
        guard polygon.count >= 3 else { return false }
        var inside = false
        var previous = polygon[polygon.count - 1]
        for vertex in polygon {
            if isOnSegment(x: longitude, y: latitude, from: (previous.longitude, previous.latitude), to: (vertex.longitude, vertex.latitude)) {
                return true
            }
            // Ray casting towards +x: count the edges that straddle the point's y and cross to its right.
            if (vertex.latitude > latitude) != (previous.latitude > latitude) {
                let crossing = vertex.longitude
                    + (latitude - vertex.latitude) * (previous.longitude - vertex.longitude) / (previous.latitude - vertex.latitude)
                if longitude < crossing { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }

    private static func isOnSegment(x: Double, y: Double, from start: (x: Double, y: Double), to end: (x: Double, y: Double)) -> Bool {
        let cross = (end.x - start.x) * (y - start.y) - (end.y - start.y) * (x - start.x)
        let scale = max(abs(end.x - start.x), abs(end.y - start.y), 1)
        guard abs(cross) <= 1e-12 * scale else { return false }
        return (min(start.x, end.x)...max(start.x, end.x)).contains(x) && (min(start.y, end.y)...max(start.y, end.y)).contains(y)
    }
}
