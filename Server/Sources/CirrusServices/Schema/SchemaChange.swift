package import CirrusModel

/// A change to a class through the schema API, read from a Parse-style body:
///
/// ```json
/// {"fields": {"title": {"type": "String", "read_only": true}, "author": {"type": "Pointer", "targetClass": "_User"},
///             "old": {"__op": "Delete"}},
///  "classLevelPermissions": {"find": {"*": true}, "create": {"requiresAuthentication": true}},
///  "defaultACL": {"*": {"read": true}},
///  "indexes": {"title_1": {"title": 1}, "old_index": {"__op": "Delete"}}}
/// ```
///
/// Class permissions are read in LeanCloud's form as well (`permissions`, `onlySignInUsers`, `roles`/`users`).
package struct SchemaChange: Sendable {
    /// New fields and fields whose type is restated, with their types.
    package var fields: [String: FieldType] = [:]
    /// Fields to remove.
    package var deletedFields: [String] = []
    /// Column flags to change, per field: the flag members as given (the flags they do not name are kept).
    package var fieldFlags: [String: JSON] = [:]
    package var permissions: ClassPermissions?
    /// `nil`: unchanged; `.some(nil)`: removed.
    package var defaultACL: ACL??
    package var addedIndexes: [String: FieldPath] = [:]
    package var droppedIndexes: [String] = []
    /// In-app search: `nil` unchanged; `.some(nil)` off; else on with these fields (`"search": {"fields": [...]}`,
    /// `"search": null` or `false` to turn it off).
    package var search: [String]??
    /// The fields of Parse's text indexes (`{"subject": "text", "comment": "text"}`): they become search fields, which is
    /// what answers Parse's `$text`.
    package var textIndexFields: [String] = []

    package init() {}

    /// Reads a body.
    /// - Throws: ``APIError`` for unknown types, invalid field names, malformed permissions, ACLs or indexes.
    package init(body: JSON) throws(APIError) {
        guard case .object(let members) = body else { throw APIError(.invalidJSON, "The body must be a JSON object.") }
        if case .object(let fields)? = members["fields"] {
            for (name, spec) in fields { try readField(name, spec) }
        } else if members["fields"] != nil {
            throw Self.invalid("'fields' must be an object")
        }
        if let permissions = members["classLevelPermissions"] ?? members["permissions"] {
            self.permissions = try ClassPermissions(wire: permissions)
        }
        if let acl = members["defaultACL"] { defaultACL = .some(acl.isNull ? nil : try ACL(wire: acl)) }
        if case .object(let indexes)? = members["indexes"] {
            for (name, spec) in indexes { try readIndex(name, spec) }
        } else if members["indexes"] != nil {
            throw Self.invalid("'indexes' must be an object")
        }
        if let search = members["search"] {
            switch search {
            case .null, .bool(false): self.search = .some(nil)
            case .object(let settings):
                guard case .array(let fields)? = settings["fields"], fields.allSatisfy({ $0.stringValue != nil }) else {
                    throw Self.invalid("'search' is {\"fields\": [field names]}, or null to turn search off")
                }
                self.search = .some(fields.compactMap(\.stringValue))
            default: throw Self.invalid("'search' is {\"fields\": [field names]}, or null to turn search off")
            }
        }
    }

    private mutating func readField(_ name: String, _ spec: JSON) throws(APIError) {
        guard FieldName.isWritable(name) else { throw APIError(.invalidKeyName, "Invalid field name '\(name)'.") }
        guard case .object(let members) = spec else { throw Self.invalid("the field '\(name)' must be described by an object") }
        if members["__op"]?.stringValue == "Delete" {
            deletedFields.append(name)
            return
        }
        if let typeName = members["type"] {
            fields[name] = try Self.type(typeName, target: members["targetClass"] ?? members["className"], field: name)
        }
        guard FieldOptions(wire: spec) != nil else { throw Self.invalid("the flags of '\(name)' must be booleans") }
        let flags = members.filter { FieldOptions.wireNames.contains($0.key) }
        if !flags.isEmpty { fieldFlags[name] = .object(flags) }
        if members["type"] == nil, fieldFlags[name] == nil { throw Self.invalid("the field '\(name)' needs a type") }
    }

    /// The flags of each field the change names, as they are once it applies to `current`.
    package func fieldOptions(over current: ClassSchema?) -> [String: FieldOptions] {
        fieldFlags.reduce(into: [:]) { result, entry in
            let base = current?.fieldOptions(entry.key) ?? FieldOptions()
            result[entry.key] = base.changed(by: entry.value) ?? base
        }
    }

    static func type(_ name: JSON, target: JSON?, field: String) throws(APIError) -> FieldType {
        guard let text = name.stringValue else { throw invalid("the type of '\(field)' must be a string") }
        switch text {
        case "Pointer", "Relation":
            guard let targetClass = target?.stringValue, ClassName.isValid(targetClass) else {
                throw APIError(.invalidClassName, "The \(text) field '\(field)' needs a valid targetClass.")
            }
            return text == "Pointer" ? .pointer(targetClass: targetClass) : .relation(targetClass: targetClass)
        case "ACL":
            throw APIError(.incorrectType, "'\(field)' cannot be of type ACL: only the built-in ACL field is.")
        default:
            guard let type = FieldType(storedName: text) else { throw APIError(.incorrectType, "Unknown field type '\(text)' for '\(field)'.") }
            return type
        }
    }

    private mutating func readIndex(_ name: String, _ spec: JSON) throws(APIError) {
        if case .object(let members) = spec, !members.isEmpty, members.values.allSatisfy({ $0.stringValue == "text" }) {
            for field in members.keys.sorted() where !textIndexFields.contains(field) {
                guard FieldName.isWritable(field) else { throw Self.invalid("the text index '\(name)' names '\(field)', which is not a field name") }
                textIndexFields.append(field)
            }
            return
        }
        guard case .object(let members) = spec, members.count == 1, let (key, direction) = members.first else {
            throw Self.invalid("the index '\(name)' must name one field, like {\"title\": 1}")
        }
        if key == "__op", direction.stringValue == "Delete" {
            droppedIndexes.append(name)
            return
        }
        guard direction.intValue == 1 || direction.intValue == -1 else {
            throw Self.invalid("the index '\(name)' must give its field 1 or -1")
        }
        addedIndexes[name] = try FieldPath(parsing: key)
    }

    static func invalid(_ detail: String) -> APIError {
        APIError(.invalidParameter, "Invalid schema: \(detail).")
    }
}
