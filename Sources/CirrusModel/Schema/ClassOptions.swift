/// What a class records besides its field types: class permissions, column flags, the default ACL of new
/// objects, the names of indexes created through the schema API, and the fields in-app search indexes.
public struct ClassOptions: Sendable, Hashable {
    /// `nil`: the defaults of ``ClassPermissions/defaults(for:)``.
    public var permissions: ClassPermissions?
    /// Flags per field; fields without flags are left out.
    public var fields: [String: FieldOptions]
    /// The ACL of objects created without one; `nil`: none (public read and write, LeanCloud's default).
    public var defaultACL: ACL?
    /// Indexes named through the schema API, by name.
    public var indexes: [String: FieldPath]
    /// The fields in-app search indexes, in the order of the search index's columns; `nil`: search is off for the
    /// class (docs/SEARCH.md).
    public var searchFields: [String]?

    public init(
        permissions: ClassPermissions? = nil, fields: [String: FieldOptions] = [:], defaultACL: ACL? = nil, indexes: [String: FieldPath] = [:],
        searchFields: [String]? = nil
    ) {
        self.permissions = permissions
        self.fields = fields.filter { !$0.value.isDefault }
        self.defaultACL = defaultACL
        self.indexes = indexes
        self.searchFields = searchFields
    }

    public var isDefault: Bool { self == ClassOptions() }

    /// The form kept in the store: `{"permissions":…,"fields":{"f":{"read_only":true,"hidden":true,"exposed":true}},"defaultACL":…,
    /// "indexes":{"name":"a.b"}}` (permissions in LeanCloud's form).
    public var stored: JSON {
        var members: [String: JSON] = [:]
        if let permissions { members["permissions"] = permissions.wire(.leancloud) }
        if !fields.isEmpty { members["fields"] = .object(fields.mapValues(\.wire)) }
        if let defaultACL { members["defaultACL"] = defaultACL.wire }
        if !indexes.isEmpty { members["indexes"] = .object(indexes.mapValues { .string($0.description) }) }
        if let searchFields { members["search"] = ["fields": .array(searchFields.map(JSON.string))] }
        return .object(members)
    }

    /// Reads ``stored`` back; unreadable parts are dropped rather than failing the class.
    public init(stored json: JSON) {
        self.init()
        if let permissions = json["permissions"] { self.permissions = try? ClassPermissions(wire: permissions) }
        if case .object(let fields)? = json["fields"] {
            self.fields = fields.compactMapValues { FieldOptions(wire: $0) }.filter { !$0.value.isDefault }
        }
        if let acl = json["defaultACL"] { defaultACL = try? ACL(wire: acl) }
        if case .object(let indexes)? = json["indexes"] {
            self.indexes = indexes.compactMapValues { $0.stringValue.flatMap { try? FieldPath(parsing: $0) } }
        }
        if case .array(let fields)? = json["search"]?["fields"] { searchFields = fields.compactMap(\.stringValue) }
    }
}

extension FieldOptions {
    /// `{"read_only":true,"hidden":true,"exposed":true,"required":true,"defaultValue":…}` (LeanCloud's column flags,
    /// Cirrus's `exposed`, Parse's `required` and `defaultValue`).
    public var wire: JSON {
        var members: [String: JSON] = [:]
        if readOnly { members["read_only"] = true }
        if hidden { members["hidden"] = true }
        if exposed { members["exposed"] = true }
        if required { members["required"] = true }
        if let defaultValue { members["defaultValue"] = defaultValue }
        return .object(members)
    }

    /// The names of the flags in ``wire`` (and `readOnly` and `default`, which are read too).
    public static let wireNames: Set<String> = ["read_only", "readOnly", "hidden", "exposed", "required", "defaultValue", "default"]

    /// Reads `read_only`/`readOnly`, `hidden`, `exposed`, `required` and `defaultValue`/`default` (a null default is
    /// none); `nil` when a flag is not a boolean.
    public init?(wire json: JSON) {
        guard let flags = FieldOptions().changed(by: json) else { return nil }
        self = flags
    }

    /// These flags with those `json` names changed and the others kept, as a schema change sets them (a null
    /// default takes the default back); `nil` when a flag is not a boolean.
    public func changed(by json: JSON) -> FieldOptions? {
        guard case .object(let members) = json else { return nil }
        func flag(_ value: JSON?, _ current: Bool) -> Bool? {
            guard let value else { return current }
            return value.boolValue
        }
        guard let readOnly = flag(members["read_only"] ?? members["readOnly"], readOnly), let hidden = flag(members["hidden"], hidden),
            let exposed = flag(members["exposed"], exposed), let required = flag(members["required"], required)
        else { return nil }
        var defaultValue = defaultValue
        if let given = members["defaultValue"] ?? members["default"] { defaultValue = given.isNull ? JSON?.none : given }
        return FieldOptions(readOnly: readOnly, hidden: hidden, exposed: exposed, required: required, defaultValue: defaultValue)
    }
}
