/// The type a class records for one of its fields; a later write of another type is refused.
public enum FieldType: Sendable, Hashable, CustomStringConvertible {
    case string
    case number
    case boolean
    case date
    case bytes
    case file
    case geoPoint
    case array
    case object
    case acl
    case pointer(targetClass: String)
    case relation(targetClass: String)

    /// The name used by the schema API (`"String"`, `"Pointer"`, …).
    public var name: String {
        switch self {
        case .string: "String"
        case .number: "Number"
        case .boolean: "Boolean"
        case .date: "Date"
        case .bytes: "Bytes"
        case .file: "File"
        case .geoPoint: "GeoPoint"
        case .array: "Array"
        case .object: "Object"
        case .acl: "ACL"
        case .pointer: "Pointer"
        case .relation: "Relation"
        }
    }

    /// The target class of a Pointer or Relation.
    public var targetClass: String? {
        switch self {
        case .pointer(let target), .relation(let target): target
        default: nil
        }
    }

    /// `Pointer<_User>` style text for messages and storage.
    public var description: String {
        targetClass.map { "\(name)<\($0)>" } ?? name
    }

    /// Parses ``description`` back.
    public init?(storedName: String) {
        if storedName.hasSuffix(">"), let open = storedName.firstIndex(of: "<") {
            let target = String(storedName[storedName.index(after: open)..<storedName.index(before: storedName.endIndex)])
            switch storedName[..<open] {
            case "Pointer": self = .pointer(targetClass: target)
            case "Relation": self = .relation(targetClass: target)
            default: return nil
            }
            return
        }
        let simple: [String: FieldType] = [
            "String": .string, "Number": .number, "Boolean": .boolean, "Date": .date, "Bytes": .bytes,
            "File": .file, "GeoPoint": .geoPoint, "Array": .array, "Object": .object, "ACL": .acl,
        ]
        guard let type = simple[storedName] else { return nil }
        self = type
    }
}
