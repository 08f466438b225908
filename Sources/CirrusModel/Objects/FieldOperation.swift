/// What one write does to one field: set it, unset it, or change it atomically.
public enum FieldOperation: Sendable, Hashable {
    case set(Value)
    /// `{"__op":"Delete"}`: remove the key.
    case delete
    /// `Increment` (and `Decrement`, negated): add a number, starting from 0 when the field is missing or
    /// does not hold a number.
    case increment(Value)
    case bitAnd(Int64)
    case bitOr(Int64)
    case bitXor(Int64)
    /// Append, keeping duplicates.
    case add([Value])
    /// Append the elements not already present.
    case addUnique([Value])
    /// Remove every occurrence.
    case remove([Value])
    /// Add and remove members of a Relation column (`AddRelation`, `RemoveRelation`, or a `Batch` of both).
    case relation(add: [Pointer], remove: [Pointer])

    /// The schema type this operation gives its field, or `nil` when it says nothing about the type.
    public var fieldType: FieldType? {
        switch self {
        case .set(let value): value.fieldType
        case .delete: nil
        case .increment, .bitAnd, .bitOr, .bitXor: .number
        case .add, .addUnique, .remove: .array
        case .relation(let added, let removed): (added.first ?? removed.first).map { .relation(targetClass: $0.className) }
        }
    }

    /// Whether the operation changes the document (everything but relation edits, which live in join rows).
    public var touchesDocument: Bool {
        if case .relation = self { return false }
        return true
    }
}

extension FieldOperation {
    /// The value after applying the operation to `current` (`nil` = the key is absent).
    ///
    /// The stores run these operations in SQL; this is the same semantics in memory, used to compute
    /// the initial values of a new object and by clients and live queries.
    public func apply(to current: Value?) -> Value? {
        switch self {
        case .set(let value): return value
        case .delete: return nil
        case .increment(let amount):
            let start = current.flatMap { $0.numericValue == nil ? nil : $0 } ?? .int(0)
            return Value.sum(start, amount)
        case .bitAnd(let operand): return .int((current?.integerValue ?? 0) & operand)
        case .bitOr(let operand): return .int((current?.integerValue ?? 0) | operand)
        case .bitXor(let operand): return .int((current?.integerValue ?? 0) ^ operand)
        case .add(let elements): return .array((current?.arrayElements ?? []) + elements)
        case .addUnique(let elements):
            var result = current?.arrayElements ?? []
            for element in elements where !result.contains(where: { $0.isEquivalent(to: element) }) {
                result.append(element)
            }
            return .array(result)
        case .remove(let elements):
            return .array((current?.arrayElements ?? []).filter { item in !elements.contains { $0.isEquivalent(to: item) } })
        case .relation:
            return current
        }
    }
}

extension Value {
    var integerValue: Int64? {
        switch self {
        case .int(let number): number
        case .double(let number): Int64(exactly: number.rounded(.towardZero))
        default: nil
        }
    }

    var arrayElements: [Value]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Numeric addition that stays integral while both sides are integers and do not overflow.
    static func sum(_ lhs: Value, _ rhs: Value) -> Value {
        if case .int(let left) = lhs, case .int(let right) = rhs {
            let (total, overflow) = left.addingReportingOverflow(right)
            if !overflow { return .int(total) }
        }
        return .double((lhs.numericValue ?? 0) + (rhs.numericValue ?? 0))
    }

    /// A number as `Double`, or `nil`.
    public var numericValue: Double? {
        switch self {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// The same value with every integral double written as an integer, so that values equivalent by
    /// ``isEquivalent(to:)`` have equal keys (up to integers beyond 2^53, which doubles cannot tell apart): sets of
    /// values deduplicate in linear time.
    public var equivalenceKey: Value {
        switch self {
        case .double(let number): Int64(exactly: number).map(Value.int) ?? self
        case .array(let elements): .array(elements.map(\.equivalenceKey))
        case .object(let members): .object(members.mapValues(\.equivalenceKey))
        default: self
        }
    }

    /// Equality as queries and array operations see it: numbers compare by value (`1 == 1.0`),
    /// pointers by class and id, everything else structurally.
    public func isEquivalent(to other: Value) -> Bool {
        switch (self, other) {
        case (.int, .double), (.double, .int), (.double, .double):
            return numericValue == other.numericValue
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { value.isEquivalent(to: $0) } ?? false }
        default:
            return self == other
        }
    }
}

extension APIError {
    /// A number operation whose result is beyond the largest double, which no JSON number can hold.
    public static let numberOutOfRange = APIError(
        .numberOutOfRange, "The result of the operation is beyond the largest number (1.7976931348623157e308) and cannot be stored."
    )
}
