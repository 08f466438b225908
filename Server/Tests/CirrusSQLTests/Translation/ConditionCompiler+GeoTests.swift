import CirrusModel
import CirrusSQL
import Testing

@Suite("ConditionCompiler: geo queries")
struct ConditionCompilerGeoTests {
    /// `$nearSphere` with each distance unit, `$within` `$box` (also across the antimeridian), `$geoWithin`
    /// `$polygon` and `$centerSphere`, pinned for SQLite and PostgreSQL. A field matches only when it holds a
    /// GeoPoint; SQLite computes through the adapter's functions, PostgreSQL in plain SQL.
    static let cases: [ConditionCase] = [
        ConditionCase(#"{"g":{"$nearSphere":{"__type":"GeoPoint","latitude":40,"longitude":-30}}}"#, typed: false,
            sqlite: DialectSQL(#"(json_extract("data", '$."g"."__type"') = ?)"#, [.text(#"GeoPoint"#)]),
            postgres: DialectSQL(#"((("data" #> '{"g"}') -> '__type') = $1::jsonb)"#, [.text(#""GeoPoint""#)])),
        ConditionCase(#"{"g":{"$nearSphere":{"__type":"GeoPoint","latitude":40,"longitude":-30},"$maxDistanceInKilometers":10}}"#, typed: false,
            sqlite: DialectSQL(#"(json_extract("data", '$."g"."__type"') = ? AND cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) <= ?)"#, [.text(#"GeoPoint"#), .double(40.0), .double(-30.0), .double(10 / Condition.earthRadiusKilometers)]),
            postgres: DialectSQL(#"((("data" #> '{"g"}') -> '__type') = $1::jsonb AND (2 * asin(least(1::float8, sqrt(power(sin(radians($2::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END)) * cos(radians($3::float8)) * power(sin(radians($4::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END) / 2), 2))))) <= $5)"#, [.text(#""GeoPoint""#), .double(40.0), .double(40.0), .double(-30.0), .double(10 / Condition.earthRadiusKilometers)])),
        ConditionCase(#"{"g":{"$nearSphere":[-30,40],"$maxDistanceInMiles":5,"$minDistanceInMiles":1}}"#, typed: false,
            sqlite: DialectSQL(#"(json_extract("data", '$."g"."__type"') = ? AND cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) <= ? AND cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) >= ?)"#, [.text(#"GeoPoint"#), .double(40.0), .double(-30.0), .double(5 / Condition.earthRadiusMiles), .double(40.0), .double(-30.0), .double(1 / Condition.earthRadiusMiles)]),
            postgres: DialectSQL(#"((("data" #> '{"g"}') -> '__type') = $1::jsonb AND (2 * asin(least(1::float8, sqrt(power(sin(radians($2::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END)) * cos(radians($3::float8)) * power(sin(radians($4::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END) / 2), 2))))) <= $5 AND (2 * asin(least(1::float8, sqrt(power(sin(radians($6::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END)) * cos(radians($7::float8)) * power(sin(radians($8::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END) / 2), 2))))) >= $9)"#, [.text(#""GeoPoint""#), .double(40.0), .double(40.0), .double(-30.0), .double(5 / Condition.earthRadiusMiles), .double(40.0), .double(40.0), .double(-30.0), .double(1 / Condition.earthRadiusMiles)])),
        ConditionCase(#"{"g":{"$nearSphere":[-30,40],"$maxDistanceInRadians":0.5,"$minDistance":0.1}}"#, typed: false,
            sqlite: DialectSQL(#"(json_extract("data", '$."g"."__type"') = ? AND cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) <= ? AND cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) >= ?)"#, [.text(#"GeoPoint"#), .double(40.0), .double(-30.0), .double(0.5), .double(40.0), .double(-30.0), .double(0.1)]),
            postgres: DialectSQL(#"((("data" #> '{"g"}') -> '__type') = $1::jsonb AND (2 * asin(least(1::float8, sqrt(power(sin(radians($2::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END)) * cos(radians($3::float8)) * power(sin(radians($4::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END) / 2), 2))))) <= $5 AND (2 * asin(least(1::float8, sqrt(power(sin(radians($6::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END)) * cos(radians($7::float8)) * power(sin(radians($8::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END) / 2), 2))))) >= $9)"#, [.text(#""GeoPoint""#), .double(40.0), .double(40.0), .double(-30.0), .double(0.5), .double(40.0), .double(40.0), .double(-30.0), .double(0.1)])),
        ConditionCase(#"{"g":{"$within":{"$box":[{"__type":"GeoPoint","latitude":30,"longitude":115},{"__type":"GeoPoint","latitude":40,"longitude":118}]}}}"#, typed: false,
            sqlite: DialectSQL(#"(json_extract("data", '$."g"."__type"') = ? AND json_extract("data", '$."g"."latitude"') >= ? AND json_extract("data", '$."g"."latitude"') <= ? AND json_extract("data", '$."g"."longitude"') >= ? AND json_extract("data", '$."g"."longitude"') <= ?)"#, [.text(#"GeoPoint"#), .double(30.0), .double(40.0), .double(115.0), .double(118.0)]),
            postgres: DialectSQL(#"((("data" #> '{"g"}') -> '__type') = $1::jsonb AND CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END >= $2 AND CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END <= $3 AND CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END >= $4 AND CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END <= $5)"#, [.text(#""GeoPoint""#), .double(30.0), .double(40.0), .double(115.0), .double(118.0)])),
        ConditionCase(#"{"g":{"$within":{"$box":[[170,-10],[-170,10]]}}}"#, typed: false,
            sqlite: DialectSQL(#"(json_extract("data", '$."g"."__type"') = ? AND json_extract("data", '$."g"."latitude"') >= ? AND json_extract("data", '$."g"."latitude"') <= ? AND (json_extract("data", '$."g"."longitude"') >= ? OR json_extract("data", '$."g"."longitude"') <= ?))"#, [.text(#"GeoPoint"#), .double(-10.0), .double(10.0), .double(170.0), .double(-170.0)]),
            postgres: DialectSQL(#"((("data" #> '{"g"}') -> '__type') = $1::jsonb AND CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END >= $2 AND CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END <= $3 AND (CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END >= $4 OR CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END <= $5))"#, [.text(#""GeoPoint""#), .double(-10.0), .double(10.0), .double(170.0), .double(-170.0)])),
        ConditionCase(#"{"g":{"$geoWithin":{"$polygon":[[0,0],[10,0],[10,10.5]]}}}"#, typed: false,
            sqlite: DialectSQL(#"(json_extract("data", '$."g"."__type"') = ? AND cirrus_in_polygon(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?) = 1)"#, [.text(#"GeoPoint"#), .text(#"[[0.0,0.0],[0.0,10.0],[10.5,10.0]]"#)]),
            postgres: DialectSQL(#"((("data" #> '{"g"}') -> '__type') = $1::jsonb AND EXISTS (SELECT 1 FROM (SELECT CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END AS x, CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END AS y) AS p WHERE p.x IS NOT NULL AND p.y IS NOT NULL AND (((abs($2::float8 * (p.y - $3::float8) - $4::float8 * (p.x - $5::float8)) <= $6::float8 AND p.x BETWEEN $7::float8 AND $8::float8 AND p.y BETWEEN $9::float8 AND $10::float8) OR (abs($11::float8 * (p.y - $12::float8) - $13::float8 * (p.x - $14::float8)) <= $15::float8 AND p.x BETWEEN $16::float8 AND $17::float8 AND p.y BETWEEN $18::float8 AND $19::float8) OR (abs($20::float8 * (p.y - $21::float8) - $22::float8 * (p.x - $23::float8)) <= $24::float8 AND p.x BETWEEN $25::float8 AND $26::float8 AND p.y BETWEEN $27::float8 AND $28::float8)) OR ((CASE WHEN ($29::float8 > p.y) <> ($30::float8 > p.y) AND p.x < $31::float8 + (p.y - $32::float8) * $33::float8 / $34::float8 THEN 1 ELSE 0 END + CASE WHEN ($35::float8 > p.y) <> ($36::float8 > p.y) AND p.x < $37::float8 + (p.y - $38::float8) * $39::float8 / $40::float8 THEN 1 ELSE 0 END)) % 2 = 1)))"#, [.text(#""GeoPoint""#), .double(-10.0), .double(10.5), .double(-10.5), .double(10.0), .double(1.05e-11), .double(0.0), .double(10.0), .double(0.0), .double(10.5), .double(10.0), .double(0.0), .double(0.0), .double(0.0), .double(1e-11), .double(0.0), .double(10.0), .double(0.0), .double(0.0), .double(0.0), .double(0.0), .double(10.5), .double(10.0), .double(1.05e-11), .double(10.0), .double(10.0), .double(0.0), .double(10.5), .double(0.0), .double(10.5), .double(0.0), .double(0.0), .double(10.0), .double(10.5), .double(10.5), .double(0.0), .double(10.0), .double(10.5), .double(0.0), .double(-10.5)])),
        ConditionCase(#"{"g":{"$geoWithin":{"$centerSphere":[[-30,40],0.25]}}}"#, typed: false,
            sqlite: DialectSQL(#"(json_extract("data", '$."g"."__type"') = ? AND cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) <= ?)"#, [.text(#"GeoPoint"#), .double(40.0), .double(-30.0), .double(0.25)]),
            postgres: DialectSQL(#"((("data" #> '{"g"}') -> '__type') = $1::jsonb AND (2 * asin(least(1::float8, sqrt(power(sin(radians($2::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END)) * cos(radians($3::float8)) * power(sin(radians($4::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END) / 2), 2))))) <= $5)"#, [.text(#""GeoPoint""#), .double(40.0), .double(40.0), .double(-30.0), .double(0.25)])),
        ConditionCase(#"{"a.b":{"$nearSphere":[-30,40],"$maxDistance":1},"n":1}"#, typed: false,
            sqlite: DialectSQL(#"((json_extract("data", '$."a"."b"."__type"') = ? AND cirrus_distance(json_extract("data", '$."a"."b"."latitude"'), json_extract("data", '$."a"."b"."longitude"'), ?, ?) <= ?) AND ((json_type("data", '$."n"') IN ('integer', 'real') AND json_extract("data", '$."n"') = ?) OR (json_type("data", '$."n"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."n"')) AS e1 WHERE (e1.type IN ('integer', 'real') AND e1.value = ?)))))"#, [.text(#"GeoPoint"#), .double(40.0), .double(-30.0), .double(1.0), .int(1), .int(1)]),
            postgres: DialectSQL(#"(((("data" #> '{"a","b"}') -> '__type') = $1::jsonb AND (2 * asin(least(1::float8, sqrt(power(sin(radians($2::float8 - CASE WHEN jsonb_typeof((("data" #> '{"a","b"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"a","b"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"a","b"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"a","b"}') -> 'latitude'))::float8 END)) * cos(radians($3::float8)) * power(sin(radians($4::float8 - CASE WHEN jsonb_typeof((("data" #> '{"a","b"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"a","b"}') -> 'longitude'))::float8 END) / 2), 2))))) <= $5) AND ((jsonb_typeof(("data" #> '{"n"}')) = 'number' AND ("data" #> '{"n"}') = $6::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'array' THEN ("data" #> '{"n"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'number' AND e1.value = $7::jsonb))))"#, [.text(#""GeoPoint""#), .double(40.0), .double(40.0), .double(-30.0), .double(1.0), .text(#"1"#), .text(#"1"#)])),
    ]

    @Test("each geo operator compiles to the pinned SQL and bindings in both dialects", arguments: cases)
    func operators(_ pinned: ConditionCase) throws {
        try pinned.check()
    }

    static let center = try! GeoPoint(latitude: 40, longitude: -30)

    static let orders: [StatementCase] = [
        StatementCase("a $nearSphere alone orders by distance",
            sqlite: DialectSQL(#"cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) ASC"#, [.double(40), .double(-30)]),
            postgres: DialectSQL(#"(2 * asin(least(1::float8, sqrt(power(sin(radians($1::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END)) * cos(radians($2::float8)) * power(sin(radians($3::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END) / 2), 2))))) ASC"#, [.double(40), .double(40), .double(-30)])) { dialect in
            ConditionCompiler(dialect: dialect, schema: nil).nearOrder(.near(FieldPath(field: "g"), center, maximumDistance: 0.1, minimumDistance: nil))!
        },
        StatementCase("a $nearSphere inside a top-level AND orders by distance",
            sqlite: DialectSQL(#"cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) ASC"#, [.double(40), .double(-30)]),
            postgres: DialectSQL(#"(2 * asin(least(1::float8, sqrt(power(sin(radians($1::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END) / 2), 2) + cos(radians(CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'latitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'latitude'))::float8 END)) * cos(radians($2::float8)) * power(sin(radians($3::float8 - CASE WHEN jsonb_typeof((("data" #> '{"g"}') -> 'longitude')) = 'number' THEN ((("data" #> '{"g"}') -> 'longitude'))::float8 END) / 2), 2))))) ASC"#, [.double(40), .double(40), .double(-30)])) { dialect in
            let condition = Condition.and([.exists(FieldPath(field: "n"), true), .near(FieldPath(field: "g"), center, maximumDistance: nil, minimumDistance: nil)])
            return ConditionCompiler(dialect: dialect, schema: nil).nearOrder(condition)!
        },
    ]

    @Test("nearest first: the distance is the order term", arguments: orders)
    func nearOrder(_ pinned: StatementCase) {
        pinned.check()
    }

    @Test("conditions without a top-level $nearSphere give no distance order", arguments: [
        Condition.always,
        .withinSphere(FieldPath(field: "g"), center: center, radius: 0.1),
        .withinBox(FieldPath(field: "g"), southwest: center, northeast: center),
        .or([.near(FieldPath(field: "g"), center, maximumDistance: nil, minimumDistance: nil), .exists(FieldPath(field: "g"), true)]),
        .nor([.near(FieldPath(field: "g"), center, maximumDistance: nil, minimumDistance: nil)]),
    ])
    func noNearOrder(_ condition: Condition) {
        #expect(ConditionCompiler(dialect: SQLiteDialect(), schema: nil).nearOrder(condition) == nil)
        #expect(ConditionCompiler(dialect: PostgresDialect(), schema: nil).nearOrder(condition) == nil)
    }

    @Test("Bmob's $nearSphere without a maximum distance stops at 100 km")
    func bmobDefaultDistance() throws {
        let json = try JSONParser.parse(#"{"g":{"$nearSphere":[-30,40]}}"#)
        let condition = try Condition(where: json, options: ConditionOptions(defaultOffsetMinutes: 480, defaultMaximumDistance: 100 / Condition.earthRadiusKilometers))
        let dialect = SQLiteDialect()
        expectSQL(ConditionCompiler(dialect: dialect, schema: nil).compile(condition), dialect, DialectSQL(
            #"(json_extract("data", '$."g"."__type"') = ? AND cirrus_distance(json_extract("data", '$."g"."latitude"'), json_extract("data", '$."g"."longitude"'), ?, ?) <= ?)"#,
            [.text("GeoPoint"), .double(40), .double(-30), .double(100 / Condition.earthRadiusKilometers)]
        ))
    }

    @Test("geo operators inside $or, $and or $nor are refused as invalid queries", arguments: [
        #"{"$or":[{"g":{"$nearSphere":[-30,40]}},{"n":1}]}"#,
        #"{"$and":[{"g":{"$within":{"$box":[[0,0],[1,1]]}}}]}"#,
        #"{"$nor":[{"g":{"$geoWithin":{"$centerSphere":[[0,0],1]}}}]}"#,
        #"{"$or":[{"$and":[{"g":{"$geoWithin":{"$polygon":[[0,0],[1,0],[1,1]]}}}]}]}"#,
    ])
    func refusedInsideCompounds(_ whereJSON: String) throws {
        let json = try JSONParser.parse(whereJSON)
        #expect(throws: APIError.self) { try Condition(where: json) }
        do {
            _ = try Condition(where: json)
        } catch {
            #expect(error.reason == .invalidQuery)
        }
    }
}
