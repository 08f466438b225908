/// A class as the schema API describes it, shared by the HTTP schema endpoints and the export's `_schema.json`.
extension ClassSchema {
    /// `{"<field>": {"type": "String"}, …}`: the built-in fields, `extra` fields the class always has (system
    /// classes), the recorded ones, the target class of Pointers and Relations under each of `targetKeys`
    /// (`className` for LeanCloud, `targetClass` elsewhere), and the column flags.
    public func wireFields(extra: [String: FieldType] = [:], targetKeys: [String]) -> JSON {
        var all = Self.builtInFields.merging(extra) { first, _ in first }
        for (name, type) in fields { all[name] = type }
        var members: [String: JSON] = [:]
        for (name, type) in all {
            var entry: [String: JSON] = ["type": .string(type.name)]
            if let target = type.targetClass { for key in targetKeys { entry[key] = .string(target) } }
            for (flag, value) in fieldOptions(name).wire.objectValue ?? [:] { entry[flag] = value }
            members[name] = .object(entry)
        }
        return .object(members)
    }

    /// `{"className", "fields", "classLevelPermissions", "defaultACL"?, "indexes"}` with `fields` as given and the
    /// permissions in `style`.
    public func wire(fields: JSON, permissions style: ClassPermissions.WireStyle) -> JSON {
        var indexes: [String: JSON] = ["_id_": ["_id": 1]]
        for (name, path) in options.indexes { indexes[name] = .object([path.description: 1]) }
        var members: [String: JSON] = [
            "className": .string(className), "fields": fields, "classLevelPermissions": permissions.wire(style), "indexes": .object(indexes),
        ]
        if let acl = options.defaultACL { members["defaultACL"] = acl.wire }
        if let searchFields = options.searchFields { members["search"] = ["fields": .array(searchFields.map(JSON.string))] }
        return .object(members)
    }
}
