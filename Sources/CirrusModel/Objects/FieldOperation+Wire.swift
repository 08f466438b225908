extension FieldOperation {
    /// Decodes a field's value in a request body: a plain value is a `set`, `{"__op":…}` an operation.
    /// - Throws: ``APIError`` for unknown or malformed operations and values.
    public init(wire json: JSON, defaultOffsetMinutes: Int = 0) throws(APIError) {
        guard case .object(let members) = json, let name = members["__op"] else {
            self = .set(try Value(wire: json, defaultOffsetMinutes: defaultOffsetMinutes))
            return
        }
        self = try Self.decode(name.stringValue ?? "", members, defaultOffsetMinutes: defaultOffsetMinutes)
    }

    private static func decode(_ name: String, _ members: [String: JSON], defaultOffsetMinutes: Int) throws(APIError) -> FieldOperation {
        switch name {
        case "Delete": return .delete
        case "Increment": return .increment(try amount(members, negate: false))
        case "Decrement": return .increment(try amount(members, negate: true))
        case "BitAnd": return .bitAnd(try bitOperand(members, name))
        case "BitOr": return .bitOr(try bitOperand(members, name))
        case "BitXor": return .bitXor(try bitOperand(members, name))
        case "Add": return .add(try objects(members, name, defaultOffsetMinutes))
        case "AddUnique": return .addUnique(try objects(members, name, defaultOffsetMinutes))
        case "Remove": return .remove(try objects(members, name, defaultOffsetMinutes))
        case "AddRelation": return .relation(add: try pointers(members, name), remove: [])
        case "RemoveRelation": return .relation(add: [], remove: try pointers(members, name))
        case "Batch": return try batch(members, defaultOffsetMinutes: defaultOffsetMinutes)
        default: throw APIError(.invalidParameter, "Unknown operation \"\(name)\".")
        }
    }

    private static func amount(_ members: [String: JSON], negate: Bool) throws(APIError) -> Value {
        switch members["amount"] ?? .int(1) {
        // Decrementing by the smallest integer adds 2^63, beyond 64 bits: a double, as an overflowing sum becomes.
        case .int(let number) where negate && number == .min: return .double(-Double(number))
        case .int(let number): return .int(negate ? -number : number)
        case .double(let number): return .double(negate ? -number : number)
        default: throw APIError(.invalidParameter, "Increment and Decrement need a numeric \"amount\".")
        }
    }

    private static func bitOperand(_ members: [String: JSON], _ name: String) throws(APIError) -> Int64 {
        guard case .int(let operand) = members["value"] ?? .null else {
            throw APIError(.invalidParameter, "\(name) needs an integer \"value\".")
        }
        return operand
    }

    private static func objects(_ members: [String: JSON], _ name: String, _ offset: Int) throws(APIError) -> [Value] {
        guard case .array(let elements) = members["objects"] ?? .null else {
            throw APIError(.invalidParameter, "\(name) needs an \"objects\" array.")
        }
        var values: [Value] = []
        for element in elements { values.append(try Value(wire: element, defaultOffsetMinutes: offset)) }
        return values
    }

    private static func pointers(_ members: [String: JSON], _ name: String) throws(APIError) -> [Pointer] {
        guard case .array(let elements) = members["objects"] ?? .null, !elements.isEmpty else {
            throw APIError(.invalidParameter, "\(name) needs a non-empty \"objects\" array of pointers.")
        }
        guard elements.count <= 1000 else {
            throw APIError(.invalidParameter, "\(name) takes at most 1000 objects at a time.")
        }
        var pointers: [Pointer] = []
        for element in elements {
            guard case .object(let fields) = element, fields.isTyped(.pointer) || fields.isTyped(.object) else {
                throw APIError(.invalidPointer, "\(name) takes pointers only.")
            }
            pointers.append(try Value.decodePointer(fields))
        }
        guard Set(pointers.map(\.className)).count == 1 else {
            throw APIError(.invalidParameter, "All objects of one relation must belong to the same class.")
        }
        return pointers
    }

    private static func batch(_ members: [String: JSON], defaultOffsetMinutes: Int) throws(APIError) -> FieldOperation {
        guard case .array(let items) = members["ops"] ?? .null, !items.isEmpty else {
            throw APIError(.invalidParameter, "Batch needs an \"ops\" array.")
        }
        var added: [Pointer] = []
        var removed: [Pointer] = []
        for item in items {
            guard case .relation(let add, let remove) = try FieldOperation(wire: item, defaultOffsetMinutes: defaultOffsetMinutes) else {
                throw APIError(.invalidParameter, "Batch may only combine AddRelation and RemoveRelation.")
            }
            added += add
            removed += remove
        }
        guard Set((added + removed).map(\.className)).count == 1 else {
            throw APIError(.invalidParameter, "All objects of one relation must belong to the same class.")
        }
        return .relation(add: added, remove: removed)
    }
}

extension FieldOperation {
    /// The operation as a client sends it: the value of a `set`, else `{"__op":…}`; the inverse of
    /// ``init(wire:defaultOffsetMinutes:)``. Adding and removing relation members at once is a `Batch` of both.
    public var wire: JSON {
        switch self {
        case .set(let value): value.wire
        case .delete: ["__op": "Delete"]
        case .increment(let amount): ["__op": "Increment", "amount": amount.wire]
        case .bitAnd(let operand): ["__op": "BitAnd", "value": .int(operand)]
        case .bitOr(let operand): ["__op": "BitOr", "value": .int(operand)]
        case .bitXor(let operand): ["__op": "BitXor", "value": .int(operand)]
        case .add(let values): Self.wire("Add", values.map(\.wire))
        case .addUnique(let values): Self.wire("AddUnique", values.map(\.wire))
        case .remove(let values): Self.wire("Remove", values.map(\.wire))
        case .relation(let added, let removed) where removed.isEmpty: Self.wire("AddRelation", added.map(\.wire))
        case .relation(let added, let removed) where added.isEmpty: Self.wire("RemoveRelation", removed.map(\.wire))
        case .relation(let added, let removed):
            ["__op": "Batch", "ops": [Self.wire("AddRelation", added.map(\.wire)), Self.wire("RemoveRelation", removed.map(\.wire))]]
        }
    }

    private static func wire(_ name: String, _ objects: [JSON]) -> JSON {
        ["__op": .string(name), "objects": .array(objects)]
    }
}
