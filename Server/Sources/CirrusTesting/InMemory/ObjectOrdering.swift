import CirrusModel
import CirrusStorage

/// The order of found objects, as the SQL stores sort: missing values and `null` first, then numbers (booleans as 0 and
/// 1), then strings, objects and arrays by the bytes of their text (strings unquoted); Date fields the schema records
/// by their instant; ties keep the insertion order.
struct ObjectOrdering {
    let schema: ClassSchema?

    /// `objects` ordered by `keys`; without keys, nearest first when `condition` holds a `$nearSphere` at the top level
    /// or in a top-level AND, else unchanged.
    func sorted(_ objects: [StoredObject], by keys: [SortKey], condition: Condition) -> [StoredObject] {
        if keys.isEmpty {
            guard let near = Self.near(condition) else { return objects }
            let (path, center) = near
            return Self.stableSorted(objects) { Self.order(Self.distance($0, path, center), Self.distance($1, path, center)) }
        }
        return Self.stableSorted(objects) { first, second in
            for key in keys {
                let order = Self.order(sortValue(first, key.path), sortValue(second, key.path))
                if order != .same { return key.descending ? Self.reversed(order) : order }
            }
            return .same
        }
    }

    /// The value an object sorts by: built-in fields as their columns, Date fields by their ISO text.
    private func sortValue(_ object: StoredObject, _ path: FieldPath) -> JSON? {
        if !path.isNested {
            switch path.root {
            case "objectId": return .string(object.objectId)
            case "createdAt": return .int(object.createdAt.millisecondsSince1970)
            case "updatedAt": return .int(object.updatedAt.millisecondsSince1970)
            default: break
            }
        }
        let value = object.subject.value(at: path)
        if schema?.type(at: path) == .date, case .object(let members)? = value { return members["iso"] }
        return value
    }

    /// Values in the stores' order: absent and `null`, then numbers and booleans, then text.
    static func order(_ first: JSON?, _ second: JSON?) -> SortOrder {
        let (left, right) = (SortValue(first), SortValue(second))
        switch (left, right) {
        case (.none, .none): return .same
        case (.none, _): return .ascending
        case (_, .none): return .descending
        case (.number(let a), .number(let b)): return a == b ? .same : a < b ? .ascending : .descending
        case (.number, .text): return .ascending
        case (.text, .number): return .descending
        case (.text(let a), .text(let b)):
            if a == b { return .same }
            return a.lexicographicallyPrecedes(b) ? .ascending : .descending
        }
    }

    /// How two values compare.
    enum SortOrder {
        case ascending, same, descending
    }

    /// What a JSON value sorts as.
    private enum SortValue {
        case none
        case number(Double)
        case text([UInt8])

        init(_ json: JSON?) {
            switch json {
            case nil, .null?: self = .none
            case .bool(let flag)?: self = .number(flag ? 1 : 0)
            case .string(let text)?: self = .text(Array(text.utf8))
            case let value?:
                if let number = value.doubleValue, value.isNumber { self = .number(number) } else { self = .text(JSONWriter.bytes(value)) }
            }
        }
    }

    private static func reversed(_ order: SortOrder) -> SortOrder {
        switch order {
        case .ascending: .descending
        case .descending: .ascending
        case .same: .same
        }
    }

    /// A sort that keeps the given order of equal elements.
    private static func stableSorted(_ objects: [StoredObject], _ compare: (StoredObject, StoredObject) -> SortOrder) -> [StoredObject] {
        objects.enumerated().sorted { first, second in
            switch compare(first.element, second.element) {
            case .ascending: true
            case .descending: false
            case .same: first.offset < second.offset
            }
        }.map(\.element)
    }

    /// The `$nearSphere` that orders a query without an explicit order.
    private static func near(_ condition: Condition) -> (FieldPath, GeoPoint)? {
        switch condition {
        case .near(let path, let center, _, _): (path, center)
        case .and(let parts): parts.lazy.compactMap(near).first
        default: nil
        }
    }

    /// The distance in radians from `center` to the GeoPoint at `path`, or `nil`.
    private static func distance(_ object: StoredObject, _ path: FieldPath, _ center: GeoPoint) -> JSON? {
        guard case .object(let members)? = object.subject.value(at: path), let latitude = members["latitude"]?.doubleValue,
            let longitude = members["longitude"]?.doubleValue
        else { return nil }
        return .double(GeoPoint.arcDistance(latitude: latitude, longitude: longitude, toLatitude: center.latitude, longitude: center.longitude))
    }
}
