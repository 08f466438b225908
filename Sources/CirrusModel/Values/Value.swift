/// A typed field value: the JSON types plus the `__type` values of LeanCloud, Parse and Bmob.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case date(Timestamp)
    /// Raw bytes, carried as standard base64 text.
    case bytes(base64: String)
    case pointer(Pointer)
    case file(FileReference)
    case geoPoint(GeoPoint)
    /// A relation column descriptor naming the target class.
    case relation(className: String)
    case array([Value])
    case object([String: Value])
}

extension Value {
    /// The schema type this value gives a column, or `nil` for `null`.
    public var fieldType: FieldType? {
        switch self {
        case .null: nil
        case .bool: .boolean
        case .int, .double: .number
        case .string: .string
        case .date: .date
        case .bytes: .bytes
        case .pointer(let pointer): .pointer(targetClass: pointer.className)
        case .file: .file
        case .geoPoint: .geoPoint
        case .relation(let className): .relation(targetClass: className)
        case .array: .array
        case .object: .object
        }
    }

    /// Whether the value is a GeoPoint; used to enforce one GeoPoint field per object.
    public var isGeoPoint: Bool {
        if case .geoPoint = self { return true }
        return false
    }
}
