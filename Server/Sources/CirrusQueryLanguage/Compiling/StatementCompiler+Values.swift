import CirrusModel

/// Expressions to REST JSON: placeholders bound, functions evaluated, typed values validated.
extension StatementCompiler {
    /// Where a value appears: `op()` is only meaningful as a written value.
    enum ValueContext {
        case condition
        case write
    }

    /// The REST JSON of an expression.
    /// - Throws: ``CloudQueryError`` for a malformed typed value, a function given the wrong kind of argument,
    ///   or `op()` outside insert values and update assignments.
    func bind(_ expression: Expression, context: ValueContext = .condition) throws(CloudQueryError) -> JSON {
        switch expression {
        case .literal(let json, _): return json
        case .placeholder(let index, _): return values[index]
        case .array(let elements, _):
            return .array(try elements.map { element throws(CloudQueryError) in try bind(element, context: context) })
        case .object(let members, _):
            var object: [String: JSON] = [:]
            for member in members { object[member.key] = try bind(member.value, context: context) }
            return .object(object)
        case .call(let function, let arguments, let position):
            return try call(function, arguments, at: position, context: context)
        }
    }

    private func call(_ function: Expression.Function, _ arguments: [Expression], at position: SourcePosition, context: ValueContext) throws(CloudQueryError) -> JSON {
        switch function {
        case .date:
            let argument = try bind(arguments[0])
            if argument.isTyped(.date) { return try validated(argument, at: arguments[0].position) }
            let text = try string(arguments[0], argument, of: function)
            guard let stamp = Timestamp(parsing: text, defaultOffsetMinutes: options.defaultOffsetMinutes) else {
                throw CloudQueryError(at: arguments[0].position, "date() takes a date such as '2011-08-20T02:06:57.931Z', not '\(text)'")
            }
            return Value.date(stamp).wire
        case .pointer:
            let className = try string(arguments[0], try bind(arguments[0]), of: function)
            let objectId = try string(arguments[1], try bind(arguments[1]), of: function)
            return try validated(WireType.pointer.value(["className": .string(className), "objectId": .string(objectId)]), at: position)
        case .geopoint:
            let longitude = try number(arguments[0], of: function)
            let latitude = try number(arguments[1], of: function)
            return try validated(Self.geoPointJSON(longitude: longitude, latitude: latitude), at: position)
        case .file:
            return try file(arguments, at: position)
        case .base64:
            let text = try string(arguments[0], try bind(arguments[0]), of: function)
            return try validated(WireType.bytes.value(["base64": .string(text)]), at: arguments[0].position)
        case .currentTimestamp:
            return Value.date(now).wire
        case .op:
            return try operation(arguments, at: position, context: context)
        }
    }

    /// `file('id')` (LeanCloud) or `file('name', 'url')` (Bmob).
    private func file(_ arguments: [Expression], at position: SourcePosition) throws(CloudQueryError) -> JSON {
        let first = try string(arguments[0], try bind(arguments[0]), of: .file)
        guard arguments.count == 2 else { return try validated(WireType.file.value(["id": .string(first)]), at: position) }
        let url = try string(arguments[1], try bind(arguments[1]), of: .file)
        return try validated(WireType.file.value(["name": .string(first), "url": .string(url)]), at: position)
    }

    /// `op('Increment', {'amount': 1})`: the REST operation `{"__op": "Increment", "amount": 1}`.
    private func operation(_ arguments: [Expression], at position: SourcePosition, context: ValueContext) throws(CloudQueryError) -> JSON {
        guard context == .write else {
            throw CloudQueryError(at: position, "op() is an update operation; use it in insert values or update assignments")
        }
        let name = try string(arguments[0], try bind(arguments[0]), of: .op)
        var members: [String: JSON] = [:]
        if arguments.count == 2 {
            guard case .object(let operands) = try bind(arguments[1], context: .condition) else {
                throw CloudQueryError(at: arguments[1].position, "the second argument of op() is an object such as {'amount': 1}")
            }
            members = operands
        }
        members["__op"] = .string(name)
        let json = JSON.object(members)
        do {
            _ = try FieldOperation(wire: json, defaultOffsetMinutes: options.defaultOffsetMinutes)
        } catch {
            throw Self.failure(error, at: position)
        }
        return json
    }

    private func string(_ expression: Expression, _ json: JSON, of function: Expression.Function) throws(CloudQueryError) -> String {
        guard case .string(let text) = json else {
            throw CloudQueryError(at: expression.position, "\(function.rawValue)() takes strings, not \(JSONWriter.string(json))")
        }
        return text
    }

    private func number(_ expression: Expression, of function: Expression.Function) throws(CloudQueryError) -> Double {
        let json = try bind(expression)
        guard let number = json.doubleValue, json.isNumber else {
            throw CloudQueryError(at: expression.position, "\(function.rawValue)() takes numbers, not \(JSONWriter.string(json))")
        }
        return number
    }

    /// The REST GeoPoint.
    static func geoPointJSON(longitude: Double, latitude: Double) -> JSON {
        WireType.geoPoint.value(["latitude": .double(latitude), "longitude": .double(longitude)])
    }

    /// `json` after checking that it is a valid REST value, normalised to the stored form.
    func validated(_ json: JSON, at position: SourcePosition) throws(CloudQueryError) -> JSON {
        do {
            return try Value(wire: json, defaultOffsetMinutes: options.defaultOffsetMinutes).wire
        } catch {
            throw Self.failure(error, at: position)
        }
    }
}
