package import CirrusModel

/// Geo conditions: `$nearSphere`, `$within`/`$box`, `$geoWithin` `$polygon` and `$centerSphere`.
///
/// A field matches only when it holds a GeoPoint (`{"__type":"GeoPoint","latitude":…,"longitude":…}`);
/// distances are radians of arc on the sphere (``GeoPoint/distance(to:)``); the dialect computes them
/// (SQLite through the adapter's functions, PostgreSQL in plain SQL).
extension ConditionCompiler {
    func compileGeo(_ condition: Condition) -> SQLFragment {
        switch condition {
        case .near(let path, let center, let maximum, let minimum):
            var parts = [isGeoPoint(path)]
            if let maximum { parts.append("\(distance(path, from: center)) <= \(bind: .double(maximum))") }
            if let minimum { parts.append("\(distance(path, from: center)) >= \(bind: .double(minimum))") }
            return parts.combined("AND")
        case .withinSphere(let path, let center, let radius):
            return [isGeoPoint(path), "\(distance(path, from: center)) <= \(bind: .double(radius))"].combined("AND")
        case .withinBox(let path, let southwest, let northeast):
            return withinBox(path, southwest: southwest, northeast: northeast)
        case .withinPolygon(let path, let vertices):
            let (latitude, longitude) = coordinates(path)
            return [isGeoPoint(path), dialect.pointInPolygon(latitude: latitude, longitude: longitude, polygon: vertices)].combined("AND")
        default:
            return "FALSE"
        }
    }

    /// The ORDER BY term that puts the nearest objects first, when `condition` holds a `$nearSphere` at the
    /// top level or in a top-level AND (the only places geo conditions are allowed); `nil` otherwise. Stores
    /// use it when the query names no order: an explicit order wins over distance.
    package func nearOrder(_ condition: Condition) -> SQLFragment? {
        switch condition {
        case .near(let path, let center, _, _): return "\(distance(path, from: center)) ASC"
        case .and(let parts): return parts.lazy.compactMap(nearOrder).first
        default: return nil
        }
    }

    /// The ORDER BY terms of a distance sort (a search's `_geo_distance`): objects without a GeoPoint last, then
    /// nearest (or farthest) first.
    package func distanceOrder(_ path: FieldPath, from center: GeoPoint, descending: Bool) -> [SQLFragment] {
        ["(\(isGeoPoint(path))) IS NOT TRUE", "\(distance(path, from: center)) \(raw: descending ? "DESC" : "ASC")"]
    }

    /// True when the field holds a GeoPoint object.
    private func isGeoPoint(_ path: FieldPath) -> SQLFragment {
        dialect.compare(dialect.member(WireType.key, of: target(path)), .equal, .string(WireType.geoPoint.rawValue))
    }

    private func coordinates(_ path: FieldPath) -> (latitude: SQLFragment, longitude: SQLFragment) {
        let field = target(path)
        return (dialect.doubleValue(dialect.member("latitude", of: field)), dialect.doubleValue(dialect.member("longitude", of: field)))
    }

    private func distance(_ path: FieldPath, from center: GeoPoint) -> SQLFragment {
        let (latitude, longitude) = coordinates(path)
        return dialect.sphericalDistance(latitude: latitude, longitude: longitude, to: center)
    }

    /// Latitude between the corners; longitude between them, or across the antimeridian when the
    /// southwest corner lies east of the northeast one.
    private func withinBox(_ path: FieldPath, southwest: GeoPoint, northeast: GeoPoint) -> SQLFragment {
        let (latitude, longitude) = coordinates(path)
        let west: SQLFragment = "\(longitude) >= \(bind: .double(southwest.longitude))"
        let east: SQLFragment = "\(longitude) <= \(bind: .double(northeast.longitude))"
        let longitudes: SQLFragment = southwest.longitude <= northeast.longitude ? "\(west) AND \(east)" : "(\(west) OR \(east))"
        return [
            isGeoPoint(path), "\(latitude) >= \(bind: .double(southwest.latitude))", "\(latitude) <= \(bind: .double(northeast.latitude))", longitudes,
        ].combined("AND")
    }
}
