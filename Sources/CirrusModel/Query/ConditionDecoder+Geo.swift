/// Decoding of the geo operators: `$nearSphere` with its distances, `$within`, `$geoWithin`.
///
/// Points are GeoPoint objects or, as in MongoDB and Parse, `[longitude, latitude]` pairs.
extension ConditionDecoder {
    static let nearKeys: Set<String> = [
        "$nearSphere", "$maxDistance", "$maxDistanceInRadians", "$maxDistanceInKilometers", "$maxDistanceInMiles",
        "$minDistance", "$minDistanceInRadians", "$minDistanceInKilometers", "$minDistanceInMiles",
    ]

    func near(_ path: FieldPath, _ members: [String: JSON]) throws(APIError) -> Condition {
        try checkGeoAllowed("$nearSphere")
        let center = try point(members["$nearSphere"]!, "$nearSphere")
        let maximum = try distance(members, prefix: "$maxDistance") ?? options.defaultMaximumDistance
        let minimum = try distance(members, prefix: "$minDistance")
        return .near(path, center, maximumDistance: maximum, minimumDistance: minimum)
    }

    /// The distance in radians from `<prefix>`, `<prefix>InRadians`, `InKilometers` or `InMiles`.
    private func distance(_ members: [String: JSON], prefix: String) throws(APIError) -> Double? {
        let units: [(String, Double)] = [
            ("", 1), ("InRadians", 1), ("InKilometers", Condition.earthRadiusKilometers), ("InMiles", Condition.earthRadiusMiles),
        ]
        for (suffix, radius) in units {
            guard let value = members[prefix + suffix] else { continue }
            guard let number = value.doubleValue, number >= 0, number.isFinite else { throw invalid("\(prefix + suffix) needs a non-negative number") }
            return number / radius
        }
        return nil
    }

    func withinBox(_ path: FieldPath, _ json: JSON) throws(APIError) -> Condition {
        try checkGeoAllowed("$within")
        guard case .array(let corners) = json["$box"] ?? .null, corners.count == 2 else {
            throw invalid("$within needs {\"$box\": [southwest, northeast]}")
        }
        let southwest = try point(corners[0], "$box")
        let northeast = try point(corners[1], "$box")
        guard southwest.latitude <= northeast.latitude else { throw invalid("the southwest corner of $box must be south of the northeast corner") }
        return .withinBox(path, southwest: southwest, northeast: northeast)
    }

    func geoWithin(_ path: FieldPath, _ json: JSON) throws(APIError) -> Condition {
        try checkGeoAllowed("$geoWithin")
        if case .array(let vertices) = json["$polygon"] ?? .null {
            guard vertices.count >= 3 else { throw invalid("$polygon needs at least three points") }
            var points: [GeoPoint] = []
            for vertex in vertices { points.append(try point(vertex, "$polygon")) }
            return .withinPolygon(path, points)
        }
        if case .array(let sphere) = json["$centerSphere"] ?? .null, sphere.count == 2 {
            guard let radius = sphere[1].doubleValue, radius >= 0, radius.isFinite else { throw invalid("the radius of $centerSphere must be a non-negative number of radians") }
            return .withinSphere(path, center: try point(sphere[0], "$centerSphere"), radius: radius)
        }
        throw invalid("$geoWithin needs {\"$polygon\": [points]} or {\"$centerSphere\": [center, radius]}")
    }

    /// A GeoPoint object or a `[longitude, latitude]` pair.
    private func point(_ json: JSON, _ op: String) throws(APIError) -> GeoPoint {
        do {
            switch json {
            case .array(let pair) where pair.count == 2:
                guard let longitude = pair[0].doubleValue, let latitude = pair[1].doubleValue else { break }
                return try GeoPoint(latitude: latitude, longitude: longitude)
            case .object:
                if case .geoPoint(let point) = try Value(wire: json) { return point }
            default:
                break
            }
        } catch {
            throw APIError(.invalidGeoPoint, error.message)
        }
        throw invalid("\(op) takes GeoPoints or [longitude, latitude] pairs")
    }

    /// Geo constraints are not allowed inside `$or`, `$and` or `$nor`, as LeanCloud documents.
    private func checkGeoAllowed(_ op: String) throws(APIError) {
        if insideCompound { throw invalid("\(op) cannot be used inside $or, $and or $nor") }
    }
}
