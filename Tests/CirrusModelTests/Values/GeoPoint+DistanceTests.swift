import CirrusModel
import Testing

@Suite("GeoPoint distance and polygons")
struct GeoPointDistanceTests {
    static func point(_ latitude: Double, _ longitude: Double) -> GeoPoint {
        try! GeoPoint(latitude: latitude, longitude: longitude)
    }

    static let distances: [(GeoPoint, GeoPoint, Double)] = [
        (point(0, 0), point(0, 1), Double.pi / 180),
        (point(0, 0), point(1, 0), Double.pi / 180),
        (point(90, 0), point(0, 45), Double.pi / 2),
        (point(0, 0), point(0, 180), Double.pi),
        (point(10, -170), point(10, 170), 0.3437095), // across the antimeridian, 20 degrees of longitude at 10°N
        (point(40, -30), point(40, -30), 0),
    ]

    @Test("distances are radians of great-circle arc", arguments: distances)
    func distance(_ from: GeoPoint, _ to: GeoPoint, _ radians: Double) {
        #expect(abs(from.distance(to: to) - radians) < 1e-7)
        #expect(abs(to.distance(to: from) - radians) < 1e-7)
    }

    @Test("London to Paris is about 343.5 km on a sphere of 6371 km")
    func londonToParis() {
        let kilometers = Self.point(51.5074, -0.1278).distance(to: Self.point(48.8566, 2.3522)) * Condition.earthRadiusKilometers
        #expect(abs(kilometers - 343.56) < 0.1)
    }

    @Test("nearly antipodal points do not overflow the arcsine")
    func antipodes() {
        let distance = Self.point(45, 10).distance(to: Self.point(-45, -170))
        #expect(distance.isFinite)
        #expect(abs(distance - Double.pi) < 1e-6)
    }

    /// A square from (0,0) to (10,10), and an L whose notch is the square from (5,5) to (10,10).
    static let square = [point(0, 0), point(0, 10), point(10, 10), point(10, 0)]
    static let ell = [point(0, 0), point(0, 10), point(5, 10), point(5, 5), point(10, 5), point(10, 0)]

    static let polygons: [([GeoPoint], GeoPoint, Bool)] = [
        (square, point(5, 5), true),
        (square, point(15, 5), false),
        (square, point(5, -0.001), false),
        (square, point(0, 5), true),
        (square, point(10, 10), true),
        (square, point(-1, -1), false),
        (ell, point(2, 8), true),
        (ell, point(8, 2), true),
        (ell, point(8, 8), false),
        (ell, point(5, 7), true),
        ([point(0, 0), point(10, 5), point(0, 10)], point(3, 5), true),
        ([point(0, 0), point(10, 5), point(0, 10)], point(7, 2), false),
    ]

    @Test("point in polygon: inside, outside, on an edge or a vertex, and in a concave notch", arguments: polygons)
    func polygon(_ vertices: [GeoPoint], _ point: GeoPoint, _ inside: Bool) {
        #expect(point.isInside(polygon: vertices) == inside)
    }

    @Test("fewer than three vertices contain nothing")
    func degenerate() {
        #expect(!Self.point(0, 0).isInside(polygon: [Self.point(0, 0), Self.point(1, 1)]))
    }
}
