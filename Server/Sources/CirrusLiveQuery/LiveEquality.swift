package import CirrusModel
package import CirrusStorage

/// A top-level equality that a subscription's condition requires: `{"room": "r1"}`, `{"objectId": id}`, `{"owner":
/// <pointer>}`, or `$in` of such values, alone or as a part of an AND. An object matches the condition only when its
/// field offers one of the equality's keys (``keys(of:field:)``), so the registry files the subscription under them
/// and a record only reaches the subscriptions filed under what its objects before and after the write offer
/// (``LiveRegistry/targets(of:)``), besides those without such an equality.
///
/// Keys are never finer than the condition evaluator's equality (whatever it finds equal has one key: strings as
/// Swift strings, numbers as doubles, so `1` and `1.0` alike), only sometimes coarser; the evaluator still decides.
package struct LiveEquality: Sendable, Hashable {
    /// A value as the equality compares it.
    package enum Key: Sendable, Hashable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case pointer(className: String, objectId: String)
    }

    /// The top-level field (`objectId` included; never `createdAt` or `updatedAt`).
    package var field: String
    /// The values the field must equal one of; never empty.
    package var keys: [Key]

    /// The equality `condition` requires, if it has one the index can use: a plain equality (or `$in`) on a top-level
    /// field with strings, numbers, booleans or pointers; the first such part of an AND.
    package init?(_ condition: Condition) {
        switch condition {
        case .compare(let path, .equal, let value): self.init(path, [value])
        case .inList(let path, let values, negated: false): self.init(path, values)
        case .and(let parts):
            guard let found = parts.lazy.compactMap(LiveEquality.init).first else { return nil }
            self = found
        default: return nil
        }
    }

    private init?(_ path: FieldPath, _ values: [Value]) {
        guard !path.isNested, path.root != "createdAt", path.root != "updatedAt", !values.isEmpty else { return nil }
        var keys: [Key] = []
        for value in values {
            guard let key = Key(value) else { return nil }
            keys.append(key)
        }
        field = path.root
        self.keys = keys
    }

    /// The keys `object`'s `field` offers an equality: its value's, or, for an array, its elements' (equality on an
    /// array field means "contains"); none when absent or of another kind.
    package static func keys(of object: StoredObject, field: String) -> [Key] {
        if field == "objectId" { return [.string(object.objectId)] }
        switch object.subject.value(at: FieldPath(field: field)) {
        case .array(let elements)?: return elements.compactMap(Key.init)
        case let value?: return Key(value).map { [$0] } ?? []
        case nil: return []
        }
    }
}

extension LiveEquality.Key {
    /// The key of a condition's operand (as its stored form would offer it), `nil` for a kind the index leaves to the
    /// evaluator.
    init?(_ value: Value) {
        self.init(value.wire)
    }

    /// The key a stored value offers, `nil` for one no indexed operand can equal.
    init?(_ stored: JSON) {
        switch stored {
        case .string(let text): self = .string(text)
        case .int(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .object(let members):
            guard let className = members["className"]?.stringValue, let objectId = members["objectId"]?.stringValue else { return nil }
            self = .pointer(className: className, objectId: objectId)
        default: return nil
        }
    }
}
