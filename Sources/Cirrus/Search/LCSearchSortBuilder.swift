import CirrusModel

/// The sort of an ``LCSearchQuery`` beyond `order`: per field, how an array field is reduced (`mode`) and where objects
/// without the field go (`missing`), and by distance from a point. It is sent as `sort`, a JSON array:
/// `[{"score":{"order":"desc","mode":"max","missing":"_last"}}, {"_geo_distance":{"location":{"lat":39.9,"lon":116.4},
/// "order":"asc","unit":"km","mode":"avg"}}]`.
///
/// ```swift
/// let sort = LCSearchSortBuilder()
/// sort.descending("score", mode: .max).ascending("name")
/// sort.whereNear(key: "location", point: LCGeoPoint(latitude: 39.9, longitude: 116.4))
/// query.sortBuilder = sort
/// ```
/// The sorts apply in the order added. A query has either a sort or an ``LCSearchQuery/order``, not both.
public final class LCSearchSortBuilder: @unchecked Sendable {
    /// The direction of a sort.
    public enum Order: String, Sendable {
        case ascending = "asc"
        case descending = "desc"
    }

    /// How the values of an array field (or the distances of several points) are reduced to one to sort on.
    public enum Mode: String, Sendable {
        case min, max, sum, avg, median
    }

    /// Where objects without the field go.
    public enum Missing: String, Sendable {
        case first = "_first"
        case last = "_last"
    }

    /// The unit distances are measured in.
    public enum Unit: String, Sendable {
        case kilometers = "km"
        case meters = "m"
        case centimeters = "cm"
        case millimeters = "mm"
        case miles = "mi"
        case yards = "yd"
        case feet = "ft"
        case inches = "in"
        case nauticalMiles = "nmi"
    }

    private let lock = Lock()
    private var fields: [JSON] = []

    public init() {}

    /// Sorts by `key`, smallest first.
    @discardableResult
    public func ascending(_ key: String, mode: Mode = .avg, missing: Missing = .last) -> LCSearchSortBuilder {
        add(key, .ascending, mode: mode, missing: missing)
    }

    /// Sorts by `key`, largest first.
    @discardableResult
    public func descending(_ key: String, mode: Mode = .avg, missing: Missing = .last) -> LCSearchSortBuilder {
        add(key, .descending, mode: mode, missing: missing)
    }

    /// Sorts by the distance of the point field `key` from `point` (`_geo_distance`), nearest first by default.
    @discardableResult
    public func whereNear(
        key: String, point: LCGeoPoint, order: Order = .ascending, unit: Unit = .kilometers, mode: Mode = .avg
    ) -> LCSearchSortBuilder {
        let location: JSON = ["lat": .double(point.latitude), "lon": .double(point.longitude)]
        let distance: JSON = [
            key: location, "order": .string(order.rawValue), "unit": .string(unit.rawValue), "mode": .string(mode.rawValue),
        ]
        return append(["_geo_distance": distance])
    }

    /// The `sort` parameter: the sorts as a JSON array.
    public func build() -> String {
        JSONWriter.string(json)
    }

    /// The sorts as JSON.
    var json: JSON { .array(lock.withLock { fields }) }

    /// Whether no sort was added.
    var isEmpty: Bool { lock.withLock { fields.isEmpty } }

    private func add(_ key: String, _ order: Order, mode: Mode, missing: Missing) -> LCSearchSortBuilder {
        append([key: ["order": .string(order.rawValue), "mode": .string(mode.rawValue), "missing": .string(missing.rawValue)]])
    }

    private func append(_ field: JSON) -> LCSearchSortBuilder {
        lock.withLock { fields.append(field) }
        return self
    }
}
