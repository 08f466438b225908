/// Geo conditions, as `ConditionCompiler+Geo` compiles them: the field itself (never an array's elements)
/// must hold a GeoPoint with numeric coordinates.
extension ConditionEvaluator {
    func evaluateGeo(_ condition: Condition) -> Bool {
        switch condition {
        case .near(let path, let center, let maximum, let minimum):
            guard let point = geoPoint(at: path) else { return false }
            if maximum == nil, minimum == nil { return true }
            let distance = Self.distance(point, center)
            return (maximum.map { distance <= $0 } ?? true) && (minimum.map { distance >= $0 } ?? true)
        case .withinSphere(let path, let center, let radius):
            guard let point = geoPoint(at: path) else { return false }
            return Self.distance(point, center) <= radius
        case .withinBox(let path, let southwest, let northeast):
            guard let point = geoPoint(at: path) else { return false }
            guard point.latitude >= southwest.latitude, point.latitude <= northeast.latitude else { return false }
            let west = point.longitude >= southwest.longitude
            let east = point.longitude <= northeast.longitude
            // A southwest corner east of the northeast one spans the antimeridian.
            return southwest.longitude <= northeast.longitude ? west && east : west || east
        case .withinPolygon(let path, let vertices):
            guard let point = geoPoint(at: path) else { return false }
            return GeoPoint.isInside(latitude: point.latitude, longitude: point.longitude, polygon: vertices.map { ($0.latitude, $0.longitude) })
        default:
            return false
        }
    }

    /// The coordinates of a stored GeoPoint (`{"__type":"GeoPoint","latitude":…,"longitude":…}`), or `nil`.
    private func geoPoint(at path: FieldPath) -> (latitude: Double, longitude: Double)? {
        guard let node = node(at: path), node.isTyped(.geoPoint), let latitude = node["latitude"]?.doubleValue,
            let longitude = node["longitude"]?.doubleValue
        else { return nil }
        return (latitude, longitude)
    }

    private static func distance(_ point: (latitude: Double, longitude: Double), _ center: GeoPoint) -> Double {
        GeoPoint.arcDistance(latitude: point.latitude, longitude: point.longitude, toLatitude: center.latitude, longitude: center.longitude)
    }
}
