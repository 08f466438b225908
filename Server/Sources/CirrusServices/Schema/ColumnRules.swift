import CirrusModel

/// A class's column defaults and required columns (LeanCloud's console flags; Parse's `defaultValue` and `required`),
/// applied to every write the object API takes, from any caller: a create that leaves a field with a default out gets
/// the default; a create without a value for a required field, or an update that removes one (null or `Delete`), is
/// refused.
struct ColumnRules {
    let schema: ClassSchema?

    /// A create's body with the defaults of the fields it leaves out.
    /// - Throws: ``APIError`` ``APIError/Reason/requiredFieldMissing`` for a required field without a value.
    func create(_ body: JSON) throws(APIError) -> JSON {
        guard let schema, !schema.options.fields.isEmpty, case .object(var members) = body else { return body }
        for (field, flags) in schema.options.fields.sorted(by: { $0.key < $1.key }) {
            if members[field] == nil, let value = flags.defaultValue { members[field] = value }
            if flags.required, Self.removes(members[field]) { throw Self.missing(field) }
        }
        return .object(members)
    }

    /// Checks that an update removes no required field.
    /// - Throws: ``APIError`` ``APIError/Reason/requiredFieldMissing``.
    func checkUpdate(_ body: JSON) throws(APIError) {
        guard let schema, case .object(let members) = body else { return }
        for (field, flags) in schema.options.fields where flags.required {
            if let value = members[field], Self.removes(value) { throw Self.missing(field) }
        }
    }

    /// Checks that each default of a schema change is a value of its field's type.
    /// - Throws: ``APIError`` ``APIError/Reason/incorrectType`` or ``APIError/Reason/invalidParameter``.
    static func checkDefaults(_ flags: [String: FieldOptions], types: (String) -> FieldType?) throws(APIError) {
        for (field, options) in flags {
            guard let json = options.defaultValue else { continue }
            guard json["__op"] == nil, let value = try? Value(wire: json), let type = value.fieldType else {
                throw APIError(.invalidParameter, "Invalid schema: the default of '\(field)' must be a value, not an operation or null.")
            }
            if let declared = types(field), declared != type {
                throw APIError(.incorrectType, "The default of '\(field)' is a \(type), but the field is a \(declared).")
            }
        }
    }

    /// Whether a write's value leaves the field without a value: absent, null, or `{"__op":"Delete"}`.
    static func removes(_ value: JSON?) -> Bool {
        guard let value else { return true }
        return value.isNull || value["__op"]?.stringValue == "Delete"
    }

    static func missing(_ field: String) -> APIError {
        APIError(.requiredFieldMissing, "\(field) is required.")
    }
}
