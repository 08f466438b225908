// Seed 000 (the LeanCloud Swift guide), section "GeoPoints": L633–L665.
//
// Each sample is copied between `// ---- seed Lx–Ly` and `// ---- end`, indented, and runs against an in-process
// Cirrus server over HTTP with `LCApplication.default` pointing at it. L638 sets a field of a `todo` the guide
// created earlier; the test creates it just before. The samples of L641–661 only build queries, apart from the
// `find` of L646–654; the test finds what the query of L658–661 matches.
//
// Changes to the seed's text in this file: none.
import Cirrus
import CirrusModel
import Foundation
import Testing

extension SeedSamples {
    @Suite("GeoPoints (seed 000 L633–665)")
    struct GeoPoints {
        /// Todos at Beijing (39.9, 116.4), Tianjin (39.1, 117.2), Shanghai (31.2, 121.5), Wuhan (30.6, 114.3) and
        /// Guangzhou (23.1, 113.3), created in that order.
        static func insertCities(_ server: SeedServer) async throws {
            let cities: [(String, Double, Double)] = [
                ("Beijing", 39.9, 116.4), ("Tianjin", 39.1, 117.2), ("Shanghai", 31.2, 121.5), ("Wuhan", 30.6, 114.3),
                ("Guangzhou", 23.1, 113.3),
            ]
            for (index, (city, latitude, longitude)) in cities.enumerated() {
                try await server.insert(
                    "Todo", objectId: city.lowercased(), createdAt: Date(timeIntervalSince1970: 1_577_836_800 + Double(index) * 60),
                    ["title": .string(city), "location": ["__type": "GeoPoint", "latitude": .double(latitude), "longitude": .double(longitude)]]
                )
            }
        }

        /// Seed 000 L635–638.
        @Test("a point stored in a todo's location field is read back with its latitude and longitude (L636, L638)")
        func storing() async throws {
            try await withSeedServer { server in
                let todo = LCObject(className: "Todo")
                // ---- seed L636
                let point = LCGeoPoint(latitude: 39.9, longitude: 116.4)
                // ---- end
                // ---- seed L638
                try todo.set("location", value: point)
                // ---- end
                try await todo.save()
                let stored = try #require(try await server.objects("Todo").first)
                #expect(stored["location"] == ["__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4])
            }
        }

        /// Seed 000 L639–656.
        @Test(".locatedNear returns the todos closest to the point first (L641–654)")
        func near() async throws {
            try await withSeedServer { server in
                try await Self.insertCities(server)
                let results = try await server.run {
                    // ---- seed L641–654
                    let query = LCQuery(className: "Todo")
                    let point = LCGeoPoint(latitude: 39.9, longitude: 116.4)
                    query.whereKey("location", .locatedNear(point))
                    // Limit to 10 results
                    query.limit = 10
                    _ = query.find { result in
                        switch result {
                        case .success(objects: let todos):
                            // todos is an array of Todo objects satisfying conditions
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                let todos = try #require(results.first?.objects)
                #expect(todos.map { $0.get("title")?.stringValue } == ["Beijing", "Tianjin", "Wuhan", "Shanghai", "Guangzhou"])
            }
        }

        /// Seed 000 L657–661.
        @Test(".locatedWithin finds the todos inside the box from (30, 115) to (40, 118) (L658–661)")
        func within() async throws {
            try await withSeedServer { server in
                try await Self.insertCities(server)
                // ---- seed L658–661
                let query = LCQuery(className: "Todo")
                let southwest = LCGeoPoint(latitude: 30, longitude: 115)
                let northeast = LCGeoPoint(latitude: 40, longitude: 118)
                query.whereKey("location", .locatedWithin(southwest: southwest, northeast: northeast))
                // ---- end
                let titles = try await query.find().compactMap { $0.get("title")?.stringValue }
                #expect(titles.sorted() == ["Beijing", "Tianjin"])
            }
        }
    }
}
