import CirrusModel
import CirrusStorage

/// Geo queries: `$nearSphere` with distances in each unit and nearest-first order, boxes, polygons and
/// spheres, and fields that are not GeoPoints.
extension StorageConformance {
    static var geoChecks: [StorageCheck] {
        [
            StorageCheck("$nearSphere keeps the objects within the maximum (and beyond the minimum) distance in km, miles or radians", nearDistances),
            StorageCheck("$nearSphere without an order returns the nearest first, and an explicit order wins", nearestFirst),
            StorageCheck("$within $box, $geoWithin $polygon and $centerSphere select the points inside", withinShapes),
            StorageCheck("a $box whose southwest corner lies east of its northeast corner spans the antimeridian", antimeridianBox),
            StorageCheck("geo conditions never match fields that are not GeoPoints", notGeoPoints),
        ]
    }

    static func geo(_ latitude: Double, _ longitude: Double) -> JSON {
        ["__type": "GeoPoint", "latitude": .double(latitude), "longitude": .double(longitude)]
    }

    static func point(_ latitude: Double, _ longitude: Double) throws -> GeoPoint {
        try GeoPoint(latitude: latitude, longitude: longitude)
    }

    static let geoCenter = (latitude: 40.0, longitude: -30.0)
    static let location = FieldPath(field: "location")

    /// Places due north of the center, inserted far ones first: `g0` at it, `g1` 5 km, `g2` 50 km and `g3`
    /// 500 km away (one degree of latitude is 111.19 km), and `gx` without a location.
    static func insertPlaces(_ driver: StorageConformanceDriver) async throws {
        let places: [(String, JSON)] = [
            ("g3", ["name": "d", "location": geo(44.497, -30)]),
            ("g1", ["name": "b", "location": geo(40.045, -30)]),
            ("gx", ["name": "x"]),
            ("g0", ["name": "a", "location": geo(40, -30)]),
            ("g2", ["name": "c", "location": geo(40.45, -30)]),
        ]
        for (offset, (id, fields)) in places.enumerated() {
            try await driver.insert("Place", fields, id: id, createdAt: stamp(Int64(offset + 1)))
        }
    }

    static func near(maximum: Double?, minimum: Double? = nil) throws -> Condition {
        .near(location, try point(geoCenter.latitude, geoCenter.longitude), maximumDistance: maximum, minimumDistance: minimum)
    }

    static func nearDistances(_ driver: StorageConformanceDriver) async throws {
        try await insertPlaces(driver)
        let kilometers = Condition.earthRadiusKilometers
        let miles = Condition.earthRadiusMiles
        let cases: [(String, Condition, [String])] = [
            ("within 10 km", try near(maximum: 10 / kilometers), ["g0", "g1"]),
            ("within 100 km", try near(maximum: 100 / kilometers), ["g0", "g1", "g2"]),
            ("within 2 miles", try near(maximum: 2 / miles), ["g0"]),
            ("within 40 miles", try near(maximum: 40 / miles), ["g0", "g1", "g2"]),
            ("within 0.1 radians", try near(maximum: 0.1), ["g0", "g1", "g2", "g3"]),
            ("within 0.001 radians", try near(maximum: 0.001), ["g0", "g1"]),
            ("between 10 and 100 km", try near(maximum: 100 / kilometers, minimum: 10 / kilometers), ["g2"]),
            ("no maximum", try near(maximum: nil), ["g0", "g1", "g2", "g3"]),
            ("within 10 km and named b", .and([try near(maximum: 10 / kilometers), .compare(FieldPath(field: "name"), .equal, .string("b"))]), ["g1"]),
        ]
        for choice in [StorageConformanceDriver.SchemaChoice.current, .none] {
            for (name, condition, expected) in cases {
                try verifyEqual(try await driver.findIds("Place", condition, schema: choice).sorted(), expected, name)
                try verifyEqual(try await driver.count("Place", condition, schema: choice), expected.count, "count \(name)")
            }
        }
    }

    static func nearestFirst(_ driver: StorageConformanceDriver) async throws {
        try await insertPlaces(driver)
        try verifyEqual(try await driver.findIds("Place", try near(maximum: nil)), ["g0", "g1", "g2", "g3"], "nearest first")
        try verifyEqual(try await driver.findIds("Place", try near(maximum: 100 / Condition.earthRadiusKilometers), limit: 2), ["g0", "g1"], "the two nearest")
        try verifyEqual(try await driver.findIds("Place", try near(maximum: nil), limit: 2, skip: 2), ["g2", "g3"], "the next two")
        let inAnd = Condition.and([.exists(FieldPath(field: "name"), true), try near(maximum: nil)])
        try verifyEqual(try await driver.findIds("Place", inAnd), ["g0", "g1", "g2", "g3"], "nearest first inside an AND")
        let byName = [SortKey(path: FieldPath(field: "name"), descending: true)]
        try verifyEqual(try await driver.findIds("Place", try near(maximum: nil), order: byName), ["g3", "g2", "g1", "g0"], "an explicit order wins")
        let byCreation = [SortKey(path: FieldPath(field: "createdAt"))]
        try verifyEqual(try await driver.findIds("Place", try near(maximum: nil), order: byCreation), ["g3", "g1", "g0", "g2"], "createdAt order wins")
        let farthestFromNorth = Condition.near(location, try point(45, -30), maximumDistance: nil, minimumDistance: nil)
        try verifyEqual(try await driver.findIds("Place", farthestFromNorth), ["g3", "g2", "g1", "g0"], "nearest to another point first")
    }

    static func withinShapes(_ driver: StorageConformanceDriver) async throws {
        try await insertPlaces(driver)
        let box = Condition.withinBox(location, southwest: try point(39.9, -30.1), northeast: try point(40.1, -29.9))
        let wideBox = Condition.withinBox(location, southwest: try point(39, -31), northeast: try point(45, -29))
        let square = Condition.withinPolygon(location, [try point(39.5, -31), try point(40.2, -31), try point(40.2, -29), try point(39.5, -29)])
        // A triangle with the center on one edge (the boundary counts as inside) and g1 outside.
        let triangle = Condition.withinPolygon(location, [try point(40, -31), try point(40, -29), try point(39, -30)])
        let sphere = Condition.withinSphere(location, center: try point(40, -30), radius: 60 / Condition.earthRadiusKilometers)
        let cases: [(String, Condition, [String])] = [
            ("box", box, ["g0", "g1"]),
            ("wide box", wideBox, ["g0", "g1", "g2", "g3"]),
            ("box elsewhere", .withinBox(location, southwest: try point(-10, 10), northeast: try point(10, 20)), []),
            ("square polygon", square, ["g0", "g1"]),
            ("triangle", triangle, ["g0"]),
            ("centerSphere of 60 km", sphere, ["g0", "g1", "g2"]),
            ("centerSphere of radius 0", .withinSphere(location, center: try point(40, -30), radius: 0), ["g0"]),
        ]
        for choice in [StorageConformanceDriver.SchemaChoice.current, .none] {
            for (name, condition, expected) in cases {
                try verifyEqual(try await driver.findIds("Place", condition, schema: choice).sorted(), expected, name)
            }
        }
    }

    static func antimeridianBox(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("Island", ["location": geo(0, 179.5)], id: "east")
        try await driver.insert("Island", ["location": geo(0, -179.5)], id: "west")
        try await driver.insert("Island", ["location": geo(0, 0)], id: "zero")
        let across = Condition.withinBox(location, southwest: try point(-1, 179), northeast: try point(1, -179))
        try verifyEqual(try await driver.findIds("Island", across).sorted(), ["east", "west"], "the box across the antimeridian")
        let ordinary = Condition.withinBox(location, southwest: try point(-1, -179), northeast: try point(1, 179))
        try verifyEqual(try await driver.findIds("Island", ordinary).sorted(), ["zero"], "the box around the prime meridian")
    }

    static func notGeoPoints(_ driver: StorageConformanceDriver) async throws {
        try await driver.insert("LooseObject", ["location": ["latitude": 40, "longitude": -30]], id: "object")
        try await driver.insert("LooseString", ["location": "40,-30"], id: "string")
        try await driver.insert("LooseNumber", ["location": 40], id: "number")
        try await driver.insert("LooseArray", ["location": [40, -30]], id: "array")
        try await driver.insert("LooseNested", ["location": ["inner": geo(40, -30)]], id: "nested")
        let conditions: [(String, Condition)] = [
            ("near", try near(maximum: nil)),
            ("near within 1 radian", try near(maximum: 1)),
            ("box", .withinBox(location, southwest: try point(39, -31), northeast: try point(41, -29))),
            ("polygon", .withinPolygon(location, [try point(39, -31), try point(41, -31), try point(41, -29), try point(39, -29)])),
            ("centerSphere", .withinSphere(location, center: try point(40, -30), radius: 1)),
        ]
        for className in ["LooseObject", "LooseString", "LooseNumber", "LooseArray", "LooseNested"] {
            for choice in [StorageConformanceDriver.SchemaChoice.current, .none] {
                for (name, condition) in conditions {
                    try verifyEqual(try await driver.findIds(className, condition, schema: choice), [], "\(name) on \(className)")
                }
            }
        }
        let nested = Condition.near(FieldPath(["location", "inner"]), try point(40, -30), maximumDistance: 0.1, minimumDistance: nil)
        try verifyEqual(try await driver.findIds("LooseNested", nested), ["nested"], "a GeoPoint at a nested path")
    }
}
