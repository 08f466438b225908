/// Decoding of the operators that reach other objects: `$inQuery`, `$select`, `$relatedTo`.
extension ConditionDecoder {
    /// `{"where": {...}, "className": "C", "limit"?: n, "skip"?: m}`.
    func subQuery(_ json: JSON, _ op: String) throws(APIError) -> SubQuery {
        guard case .object(let members) = json, let className = members["className"]?.stringValue, ClassName.isValid(className) else {
            throw invalid("\(op) needs {\"where\": {...}, \"className\": \"...\"}")
        }
        let inner = ConditionDecoder(options: options, insideCompound: false)
        let condition = try inner.decode(members["where"] ?? [:])
        var limit = 100
        if let requested = members["limit"] {
            guard let value = requested.intValue, value >= 0 else { throw invalid("the limit of \(op) must be a non-negative integer") }
            limit = min(Int(value), 1000)
        }
        var skip = 0
        if let requested = members["skip"] {
            guard let value = requested.intValue, value >= 0, value <= Int64(Int32.max) else {
                throw invalid("the skip of \(op) must be a non-negative integer")
            }
            skip = Int(value)
        }
        return SubQuery(className: className, condition: condition, limit: limit, skip: skip)
    }

    /// `{"query": {"className", "where", "limit"?}, "key": "field"}`.
    func select(_ path: FieldPath, _ json: JSON, _ op: String) throws(APIError) -> Condition {
        guard case .object(let members) = json, let query = members["query"], let key = members["key"]?.stringValue else {
            throw invalid("\(op) needs {\"query\": {\"className\": ..., \"where\": ...}, \"key\": ...}")
        }
        return .select(path, try subQuery(query, op), key: try fieldPath(key), negated: op == "$dontSelect")
    }

    /// `{"object": <Pointer>, "key": "relationField"}`.
    func relatedTo(_ json: JSON) throws(APIError) -> Condition {
        guard case .object(let members) = json, case .object(let object) = members["object"] ?? .null,
            let key = members["key"]?.stringValue, FieldName.isIdentifier(key)
        else {
            throw invalid("$relatedTo needs {\"object\": <Pointer>, \"key\": \"...\"}")
        }
        let pointer: Pointer
        do {
            pointer = try Value.decodePointer(object)
        } catch {
            throw invalid("$relatedTo needs a pointer as its object")
        }
        return .relatedTo(pointer, key: key)
    }
}
