import CirrusModel

extension InMemoryAggregator {
    /// `having`: a condition on the keys of one result row. A group key holding a field's value compares as `where`
    /// compares fields; computed values, days and built-ins only with constants of their own kind.
    struct Having {
        let kinds: [String: Kind]
        let row: [String: JSON?]

        private static let cell = FieldPath(field: "cell")

        func holds(_ condition: Condition) -> Bool {
            switch condition {
            case .always: return true
            case .and(let parts): return parts.allSatisfy(holds)
            case .or(let parts): return parts.contains(where: holds)
            case .nor(let parts): return !parts.contains(where: holds)
            case .compare(let path, let op, let value):
                guard let kind = kinds[path.description] else { return false }
                return compare(cell(path), kind, op, value)
            case .inList(let path, let values, let negated):
                guard let kind = kinds[path.description] else { return negated }
                return values.contains { compare(cell(path), kind, .equal, $0) } != negated
            case .exists(let path, let flag):
                guard kinds[path.description] != nil else { return !flag }
                return (cell(path) != nil) == flag
            default:
                return false
            }
        }

        /// The row's value of a key; `nil` when it is SQL `NULL` (absent or not computed).
        private func cell(_ path: FieldPath) -> JSON? {
            row[path.description].flatMap { $0 }
        }

        private func compare(_ cell: JSON?, _ kind: Kind, _ op: Condition.Comparison, _ value: Value) -> Bool {
            let subject = ConditionSubject(
                className: "", objectId: "", createdAt: Timestamp(millisecondsSince1970: 0), updatedAt: Timestamp(millisecondsSince1970: 0),
                fields: cell.map { [Self.cell.root: $0] } ?? [:]
            )
            let comparison = Condition.compare(Self.cell, op, value)
            if kind == .json { return comparison.matches(subject) }
            if value == .null {
                switch op {
                case .equal: return cell == nil || cell == .null
                case .notEqual: return cell != nil && cell != .null
                default: return false
                }
            }
            guard Self.comparable(kind, value), let cell, cell != .null else { return op == .notEqual }
            return comparison.matches(subject)
        }

        /// Whether a constant compares with a column of `kind` at all.
        private static func comparable(_ kind: Kind, _ value: Value) -> Bool {
            switch (kind, value) {
            case (.number, .int), (.number, .double), (.text, .string), (.date, .date): true
            default: false
            }
        }
    }
}
