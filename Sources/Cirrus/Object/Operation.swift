import CirrusModel

/// A change of one field waiting for the next save: a new value or an atomic operation (`__op`).
enum Operation: Sendable {
    case set(any LCValue)
    case delete
    case increment(Double)
    case add([any LCValue])
    case addUnique([any LCValue])
    case remove([any LCValue])
    case addRelation([LCObject])
    case removeRelation([LCObject])

    /// The wire form: the value itself, or `{"__op":…}`, as the model writes it.
    var json: JSON {
        if case .set(let value) = self { return ValueCoder.encode(value) }
        return fieldOperation.wire
    }

    /// The model's operation.
    var fieldOperation: FieldOperation {
        switch self {
        case .set(let value): .set(ValueCoder.value(value))
        case .delete: .delete
        case .increment(let amount): .increment(ValueCoder.number(amount))
        case .add(let values): .add(values.map(ValueCoder.value))
        case .addUnique(let values): .addUnique(values.map(ValueCoder.value))
        case .remove(let values): .remove(values.map(ValueCoder.value))
        case .addRelation(let objects): .relation(add: objects.map(ValueCoder.pointer), remove: [])
        case .removeRelation(let objects): .relation(add: [], remove: objects.map(ValueCoder.pointer))
        }
    }

    /// The values the operation sends, in which unsaved objects are looked for.
    var values: [any LCValue] {
        switch self {
        case .set(let value): [value]
        case .delete, .increment: []
        case .add(let values), .addUnique(let values), .remove(let values): values
        case .addRelation(let objects), .removeRelation(let objects): objects
        }
    }

    /// The field's value after this operation, as far as the client can tell.
    func apply(to current: (any LCValue)?) -> (any LCValue)? {
        switch self {
        case .set(let value): return value
        case .delete: return nil
        case .increment(let amount): return LCNumber(((current as? LCNumber)?.value ?? 0) + amount)
        case .add(let values): return LCArray(values: Self.elements(current) + values)
        case .addUnique(let values):
            var elements = Self.elements(current)
            for value in values where !elements.contains(where: { $0 == value }) { elements.append(value) }
            return LCArray(values: elements)
        case .remove(let values): return LCArray(values: Self.elements(current).filter { element in !values.contains { $0 == element } })
        case .addRelation, .removeRelation: return current
        }
    }

    private static func elements(_ value: (any LCValue)?) -> [any LCValue] {
        (value as? LCArray)?.value ?? []
    }

    /// The one operation that has the effect of `previous` followed by `next`.
    /// - Throws: `LCError` (``LCError/InternalErrorCode/inconsistency``) when the two cannot be combined before a
    ///   save (adding to an array after removing from it, for instance).
    static func merge(_ previous: Operation?, _ next: Operation) throws -> Operation {
        guard let previous else { return next }
        switch (previous, next) {
        case (_, .set), (_, .delete): return next
        case (.set, _), (.delete, _):
            guard let value = next.apply(to: previous.apply(to: nil)) else { return .delete }
            return .set(value)
        case (.increment(let first), .increment(let second)): return .increment(first + second)
        case (.add(let first), .add(let second)): return .add(first + second)
        case (.addUnique(let first), .addUnique(let second)): return .addUnique(first + second.filter { value in !first.contains { $0 == value } })
        case (.remove(let first), .remove(let second)): return .remove(first + second)
        case (.addRelation(let first), .addRelation(let second)): return .addRelation(first + second)
        case (.removeRelation(let first), .removeRelation(let second)): return .removeRelation(first + second)
        default: throw LCError.inconsistency("This operation cannot follow the one pending on the same key; save first.")
        }
    }
}
