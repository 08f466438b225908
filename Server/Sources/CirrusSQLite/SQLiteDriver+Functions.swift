import CirrusModel
import CirrusSQL
import GRDB

/// The functions the SQLite dialect's SQL calls, registered on every connection.
extension SQLiteDriver {
    /// `cirrus_regexp(pattern, options, text)`: PCRE-style matching with MongoDB options, stopped after
    /// `budgetMilliseconds` on one value (the statement then fails with ``APIError/Reason/queryTooComplex``, see
    /// ``SQLiteRefusal``).
    static func regexpFunction(budgetMilliseconds: Int) -> DatabaseFunction {
        DatabaseFunction("cirrus_regexp", argumentCount: 3, pure: true) { values in
            guard let pattern = String.fromDatabaseValue(values[0]), let options = String.fromDatabaseValue(values[1]),
                let text = String.fromDatabaseValue(values[2])
            else { return false }
            do throws(APIError) {
                return try RegexPattern.matches(
                    text, pattern: pattern, options: options, budgetMilliseconds: budgetMilliseconds
                )
            } catch {
                throw DatabaseError(message: SQLiteRefusal.message(for: error))
            }
        }
    }

    /// `cirrus_refuse(reason, message)`: fails the statement with that ``APIError`` (``SQLiteRefusal``).
    static let refuseFunction = DatabaseFunction(SQLiteRefusal.function, argumentCount: 2, pure: false) { values in
        let reason = String.fromDatabaseValue(values[0]).flatMap(APIError.Reason.init(rawValue:)) ?? .invalidParameter
        throw DatabaseError(message: SQLiteRefusal.message(for: APIError(reason, String.fromDatabaseValue(values[1]) ?? "")))
    }

    /// `cirrus_real(n)`: a real as the JSON number text that reads back as it (``SQLiteDialect/realText(_:)``).
    /// (The number is read from the value's storage: Swift 6.3's optimiser crashes on `Double.fromDatabaseValue` here.)
    static let realTextFunction = DatabaseFunction(SQLiteDialect.realTextFunction, argumentCount: 1, pure: true) { values in
        switch values[0].storage {
        case .double(let number): SQLiteDialect.realText(number)
        case .int64(let number): SQLiteDialect.realText(Double(number))
        default: nil
        }
    }

    /// `cirrus_distance(lat1, lon1, lat2, lon2)`: the great-circle distance in radians between two points in
    /// degrees; NULL unless all four are numbers.
    static let distanceFunction = DatabaseFunction(SQLiteDialect.distanceFunction, argumentCount: 4, pure: true) { values in
        let numbers = values.compactMap { Double.fromDatabaseValue($0) }
        guard numbers.count == 4 else { return nil }
        return GeoPoint.arcDistance(latitude: numbers[0], longitude: numbers[1], toLatitude: numbers[2], longitude: numbers[3])
    }

    /// `cirrus_in_polygon(lat, lon, polygon)`: 1 when the point is inside or on the polygon given as JSON
    /// `[[latitude, longitude], …]`, 0 when outside; NULL for NULL coordinates or a malformed polygon.
    static let polygonFunction = DatabaseFunction(SQLiteDialect.polygonFunction, argumentCount: 3, pure: true) { values in
        guard let latitude = Double.fromDatabaseValue(values[0]), let longitude = Double.fromDatabaseValue(values[1]),
            let text = String.fromDatabaseValue(values[2]), case .array(let vertices) = try? JSONParser.parse(text)
        else { return nil }
        let polygon = vertices.compactMap { vertex -> (latitude: Double, longitude: Double)? in
            guard case .array(let pair) = vertex, pair.count == 2, let vertexLatitude = pair[0].doubleValue,
                let vertexLongitude = pair[1].doubleValue
            else { return nil }
            return (vertexLatitude, vertexLongitude)
        }
        guard polygon.count == vertices.count else { return nil }
        return GeoPoint.isInside(latitude: latitude, longitude: longitude, polygon: polygon) ? 1 : 0
    }
}
