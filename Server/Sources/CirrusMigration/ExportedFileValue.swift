import CirrusModel

/// A file value as some export wrote it: LeanCloud's `{"__type":"File","id"}`, its expanded read form with
/// `objectId`, a `Pointer` to `_File`, Parse's `{"__type":"File","name","url"}`, or Bmob's
/// `{"__type":"File","filename","url","cdn"}` / FastDFS `{"group","filename","url"}`.
struct ExportedFileValue: Hashable {
    /// The `_File` objectId, when the value names it.
    var id: String?
    var key: String?
    var name: String?
    var url: String?

    init?(_ value: JSON) {
        guard case .object(let members) = value else { return nil }
        switch members.wireType {
        case .file:
            id = members["id"]?.stringValue ?? members["objectId"]?.stringValue
            key = members["key"]?.stringValue
            name = members["name"]?.stringValue ?? members["filename"]?.stringValue
            url = members["url"]?.stringValue
        case .pointer where members["className"]?.stringValue == "_File":
            id = members["objectId"]?.stringValue
        default:
            return nil
        }
    }

    /// The write form Cirrus stores for a file it has a row for.
    static func reference(id: String) -> JSON {
        WireType.file.value(["id": .string(id)])
    }

    /// Applies `transform` to the file values of a field: itself, or the elements of an array.
    static func map(_ value: JSON, _ transform: (ExportedFileValue, JSON) -> JSON) -> JSON {
        if let file = ExportedFileValue(value) { return transform(file, value) }
        if case .array(let elements) = value { return .array(elements.map { map($0, transform) }) }
        return value
    }

    /// The file values of a field.
    static func all(in value: JSON) -> [ExportedFileValue] {
        if let file = ExportedFileValue(value) { return [file] }
        if case .array(let elements) = value { return elements.flatMap(all) }
        return []
    }
}
