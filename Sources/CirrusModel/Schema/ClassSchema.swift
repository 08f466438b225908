/// What the server knows about one class: the types of its fields, and its permissions and column flags.
public struct ClassSchema: Sendable, Hashable {
    public var className: String
    public var fields: [String: FieldType]
    public var options: ClassOptions

    public init(className: String, fields: [String: FieldType] = [:], options: ClassOptions = ClassOptions()) {
        self.className = className
        self.fields = fields
        self.options = options
    }

    /// The class permissions in force: the recorded ones, or the defaults of the class.
    public var permissions: ClassPermissions {
        options.permissions ?? .defaults(for: className)
    }

    /// The flags of a field.
    public func fieldOptions(_ field: String) -> FieldOptions {
        options.fields[field] ?? FieldOptions()
    }

    /// The fields clients never see.
    public var hiddenFields: Set<String> {
        Set(options.fields.filter(\.value.hidden).keys)
    }

    /// The personal fields of `_User`: only the user they belong to and the master key see them, and no client may
    /// filter, sort, group or select on them, unless the column is ``FieldOptions/exposed`` (`email` and
    /// `mobilePhoneNumber` only: `authData` holds third-party access tokens and is never exposed).
    public static let personalFields: Set<String> = ["email", "mobilePhoneNumber", "authData"]

    /// The personal fields a class may expose to every client.
    public static let exposablePersonalFields: Set<String> = ["email", "mobilePhoneNumber"]

    /// The fields of `className` that a client sees on its own user object only: the personal fields of `_User`
    /// that are not exposed; none in other classes.
    public static func privateFields(of className: String, schema: ClassSchema?) -> Set<String> {
        guard className == "_User" else { return [] }
        return personalFields.filter { !(exposablePersonalFields.contains($0) && schema?.fieldOptions($0).exposed == true) }
    }

    /// The fields of `className` a client may not read on an object that is not its own user, nor name in a
    /// condition, sort key, group key, aggregate or sub-query selection: the hidden fields and the private ones.
    public static func protectedFields(of className: String, schema: ClassSchema?) -> Set<String> {
        (schema?.hiddenFields ?? []).union(privateFields(of: className, schema: schema))
    }

    /// The built-in fields every class has.
    public static let builtInFields: [String: FieldType] = [
        "objectId": .string, "createdAt": .date, "updatedAt": .date, "ACL": .acl,
    ]

    /// The recorded type of a top-level field.
    public func type(of field: String) -> FieldType? {
        Self.builtInFields[field] ?? fields[field]
    }

    /// The type at a path: known for top-level fields only.
    public func type(at path: FieldPath) -> FieldType? {
        path.isNested ? nil : type(of: path.root)
    }

    /// The Relation fields, whose descriptors appear on every object of the class.
    public var relationFields: [(name: String, targetClass: String)] {
        fields.compactMap { name, type in
            guard case .relation(let target) = type else { return nil }
            return (name, target)
        }.sorted { $0.name < $1.name }
    }

    /// The GeoPoint field, if the class has one.
    public var geoPointField: String? {
        fields.first { $0.value == .geoPoint }?.key
    }
}
