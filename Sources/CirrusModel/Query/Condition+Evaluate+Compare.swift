/// Equality, ordering and membership, as `ConditionCompiler+Comparison` compiles them.
extension ConditionEvaluator {
    /// The built-in fields, which stores keep in their own columns.
    enum BuiltIn {
        case objectId, createdAt, updatedAt

        /// The built-in field a top-level path names, or `nil`.
        init?(_ path: FieldPath) {
            guard !path.isNested else { return nil }
            switch path.root {
            case "objectId": self = .objectId
            case "createdAt": self = .createdAt
            case "updatedAt": self = .updatedAt
            default: return nil
            }
        }
    }

    /// The comparison operators applied to one stored value.
    enum Operator {
        case equal, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
    }

    func compare(_ path: FieldPath, _ op: Condition.Comparison, _ value: Value) -> Bool {
        if let column = BuiltIn(path) { return compareColumn(column, op, value) }
        switch op {
        case .equal: return equals(path, value)
        case .notEqual: return !equals(path, value)
        case .lessThan: return onFieldOrElements(path) { Self.matches($0, .lessThan, value) }
        case .lessThanOrEqual: return onFieldOrElements(path) { Self.matches($0, .lessThanOrEqual, value) }
        case .greaterThan: return onFieldOrElements(path) { Self.matches($0, .greaterThan, value) }
        case .greaterThanOrEqual: return onFieldOrElements(path) { Self.matches($0, .greaterThanOrEqual, value) }
        }
    }

    /// Field equality: `null` matches a missing field; an array field matches when it contains the value or
    /// equals it as a whole.
    func equals(_ path: FieldPath, _ value: Value) -> Bool {
        if let column = BuiltIn(path) { return compareColumn(column, .equal, value) }
        if case .null = value {
            guard let node = node(at: path) else { return true }
            return node.isNull
        }
        return onFieldOrElements(path) { Self.matches($0, .equal, value) }
    }

    /// `$in`: equal to one of the values.
    func matchesAny(_ path: FieldPath, _ values: [Value]) -> Bool {
        values.contains { equals(path, $0) }
    }

    /// Whether the field, or one of its elements when it is an array, satisfies `test`.
    func onFieldOrElements(_ path: FieldPath, _ test: (JSON) -> Bool) -> Bool {
        guard let node = node(at: path) else { return false }
        if test(node) { return true }
        guard case .array(let elements) = node else { return false }
        return elements.contains(where: test)
    }

    /// The value at `path` in the fields, or `nil` when absent. Below the top level an all-digit segment indexes
    /// an array or names an object member, whichever the container is; as in SQL, only the first three such
    /// segments may index.
    func node(at path: FieldPath) -> JSON? {
        guard var current = object.fields[path.root] else { return nil }
        var indexes = 0
        for segment in path.segments.dropFirst() {
            switch current {
            case .object(let members):
                guard let member = members[segment] else { return nil }
                current = member
            case .array(let elements):
                guard FieldPath.isIndex(segment), indexes < 3, let index = Int(segment), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
            if FieldPath.isIndex(segment) { indexes += 1 }
        }
        return current
    }

    /// Built-in fields: `objectId` compares with strings, the dates with dates; other operands match only `$ne`.
    func compareColumn(_ column: BuiltIn, _ op: Condition.Comparison, _ value: Value) -> Bool {
        switch (column, value) {
        case (.objectId, .string(let id)):
            return Self.holds(op, Self.order(utf8: object.objectId, id))
        case (.createdAt, .date(let stamp)):
            return Self.holds(op, Self.order(object.createdAt.millisecondsSince1970, stamp.millisecondsSince1970))
        case (.updatedAt, .date(let stamp)):
            return Self.holds(op, Self.order(object.updatedAt.millisecondsSince1970, stamp.millisecondsSince1970))
        default:
            return op == .notEqual
        }
    }

    /// One stored value against one typed operand, of the same kind only.
    static func matches(_ node: JSON, _ op: Operator, _ value: Value) -> Bool {
        switch value {
        case .null:
            return op == .equal && node.isNull
        case .bool(let flag):
            return op == .equal && node.boolValue == flag
        case .int, .double:
            guard let order = numberOrder(node, value) else { return false }
            return holds(op, order)
        case .string(let text):
            guard case .string(let stored) = node else { return false }
            return holds(op, order(utf8: stored, text))
        case .date(let stamp):
            // Stored dates are canonical UTC ISO text of fixed width, so text order is instant order.
            guard case .object(let members) = node, case .string(let iso)? = members["iso"] else { return false }
            return holds(op, order(utf8: iso, stamp.iso8601))
        case .pointer(let pointer):
            return op == .equal && hasMembers(node, ["objectId": pointer.objectId, "className": pointer.className])
        case .file(let file):
            guard op == .equal else { return false }
            if let id = file.id { return hasMembers(node, ["id": id]) }
            return hasMembers(node, ["name": file.name ?? "", "url": file.url ?? ""])
        case .geoPoint, .bytes, .relation, .object:
            guard op == .equal, case .object = node else { return false }
            return sameTree(node, value.wire)
        case .array:
            guard op == .equal, case .array = node else { return false }
            return sameTree(node, value.wire)
        }
    }

    private static func hasMembers(_ node: JSON, _ expected: [String: String]) -> Bool {
        guard case .object(let members) = node else { return false }
        return expected.allSatisfy { key, text in members[key]?.stringValue == text }
    }

    /// Structural equality: object members in any order, numbers by value (`1` equals `1.0`).
    static func sameTree(_ left: JSON, _ right: JSON) -> Bool {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, member in b[key].map { sameTree(member, $0) } ?? false }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { sameTree($0, $1) }
        case (.string(let a), .string(let b)):
            return a.utf8.elementsEqual(b.utf8)
        default:
            if left.isNumber, right.isNumber { return numericOrder(left, right) == .equal }
            return left == right
        }
    }

    /// How a stored number orders against a numeric operand, or `nil` when the stored value is not a number.
    private static func numberOrder(_ node: JSON, _ value: Value) -> Ordering? {
        switch value {
        case .int(let number): numericOrder(node, JSON.int(number))
        case .double(let number): numericOrder(node, JSON.double(number))
        default: nil
        }
    }

    /// Numbers by exact value, as SQLite and PostgreSQL compare them: an integer beyond 2^53 is not rounded to
    /// the nearest double first.
    private static func numericOrder(_ left: JSON, _ right: JSON) -> Ordering? {
        switch (left, right) {
        case (.int(let a), .int(let b)): return order(a, b)
        case (.double(let a), .double(let b)): return a.isNaN || b.isNaN ? nil : order(a, b)
        case (.int(let a), .double(let b)): return exactOrder(a, b)
        case (.double(let a), .int(let b)): return exactOrder(b, a).map(reversed)
        default: return nil
        }
    }

    /// An integer against a double, without rounding either.
    private static func exactOrder(_ integer: Int64, _ number: Double) -> Ordering? {
        guard !number.isNaN else { return nil }
        if number >= 9_223_372_036_854_775_808.0 { return .less }
        if number < -9_223_372_036_854_775_808.0 { return .greater }
        let whole = number.rounded(.down)
        let wholeOrder = order(integer, Int64(whole))
        guard wholeOrder == .equal else { return wholeOrder }
        return number > whole ? .less : .equal
    }

    private static func reversed(_ ordering: Ordering) -> Ordering {
        switch ordering {
        case .less: .greater
        case .equal: .equal
        case .greater: .less
        }
    }

    enum Ordering {
        case less, equal, greater
    }

    private static func order<T: Comparable>(_ left: T, _ right: T) -> Ordering {
        left < right ? .less : left == right ? .equal : .greater
    }

    /// Text order as SQLite's BINARY collation: by UTF-8 bytes, without Unicode normalization.
    private static func order(utf8 left: String, _ right: String) -> Ordering {
        if left.utf8.elementsEqual(right.utf8) { return .equal }
        return left.utf8.lexicographicallyPrecedes(right.utf8) ? .less : .greater
    }

    private static func holds(_ op: Operator, _ order: Ordering) -> Bool {
        switch op {
        case .equal: order == .equal
        case .lessThan: order == .less
        case .lessThanOrEqual: order != .greater
        case .greaterThan: order == .greater
        case .greaterThanOrEqual: order != .less
        }
    }

    private static func holds(_ op: Condition.Comparison, _ order: Ordering) -> Bool {
        switch op {
        case .equal: order == .equal
        case .notEqual: order != .equal
        case .lessThan: holds(Operator.lessThan, order)
        case .lessThanOrEqual: holds(Operator.lessThanOrEqual, order)
        case .greaterThan: holds(Operator.greaterThan, order)
        case .greaterThanOrEqual: holds(Operator.greaterThanOrEqual, order)
        }
    }
}
