/// A statistics query (Bmob's `sum`, `average`, `max`, `min`, `groupby`, `groupcount`, `having`; BQL's
/// `group by`), computed by the store in SQL.
///
/// Each result row holds the group keys under their field names and the computed values under
/// `_sum<Field>`, `_avg<Field>`, `_max<Field>`, `_min<Field>` (field name capitalised) and `_count`.
public struct Aggregation: Sendable, Hashable {
    /// One computed value.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        case sum, average, maximum, minimum

        /// The prefix of its result key: `_sum`, `_avg`, `_max`, `_min`.
        public var resultPrefix: String {
            switch self {
            case .sum: "_sum"
            case .average: "_avg"
            case .maximum: "_max"
            case .minimum: "_min"
            }
        }
    }

    public var className: String
    public var condition: Condition
    public var groupBy: [FieldPath]
    public var functions: [(function: Function, field: FieldPath)]
    /// Whether each row carries `_count`, the number of objects in its group.
    public var countsGroups: Bool
    /// A condition on the result keys (`{"_sumScore": {"$gt": 100}}`), applied as SQL `HAVING`.
    public var having: Condition?
    /// Ordering by group keys or result keys.
    public var order: [SortKey]
    public var limit: Int
    public var skip: Int

    public init(
        className: String, condition: Condition = .always, groupBy: [FieldPath] = [],
        functions: [(function: Function, field: FieldPath)] = [], countsGroups: Bool = false, having: Condition? = nil,
        order: [SortKey] = [], limit: Int = 100, skip: Int = 0
    ) {
        self.className = className
        self.condition = condition
        self.groupBy = groupBy
        self.functions = functions
        self.countsGroups = countsGroups
        self.having = having
        self.order = order
        self.limit = limit
        self.skip = skip
    }

    /// The result key of a function over a field: `_sumScore` for `sum` of `score`.
    public static func resultKey(_ function: Function, _ field: FieldPath) -> String {
        let name = field.description
        return function.resultPrefix + name.prefix(1).uppercased() + name.dropFirst()
    }

    public static func == (lhs: Aggregation, rhs: Aggregation) -> Bool {
        lhs.className == rhs.className && lhs.condition == rhs.condition && lhs.groupBy == rhs.groupBy
            && lhs.functions.map(\.function) == rhs.functions.map(\.function) && lhs.functions.map(\.field) == rhs.functions.map(\.field)
            && lhs.countsGroups == rhs.countsGroups && lhs.having == rhs.having && lhs.order == rhs.order
            && lhs.limit == rhs.limit && lhs.skip == rhs.skip
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(className)
        hasher.combine(condition)
        hasher.combine(groupBy)
        for entry in functions {
            hasher.combine(entry.function)
            hasher.combine(entry.field)
        }
        hasher.combine(countsGroups)
        hasher.combine(having)
    }
}
