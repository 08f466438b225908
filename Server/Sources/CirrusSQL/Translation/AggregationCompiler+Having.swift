import CirrusModel

/// `HAVING`: a condition on the result keys, compiled against the aggregate and group expressions.
extension AggregationCompiler {
    func having(_ condition: Condition, _ outputs: [String: AggregationOutput]) -> SQLFragment {
        switch condition {
        case .always: return "TRUE"
        case .and(let parts): return parts.isEmpty ? "TRUE" : parts.map { having($0, outputs) }.combined("AND")
        case .or(let parts): return parts.isEmpty ? "FALSE" : parts.map { having($0, outputs) }.combined("OR")
        case .nor(let parts): return parts.isEmpty ? "TRUE" : negate(parts.map { having($0, outputs) }.combined("OR"))
        case .compare(let path, let op, let value):
            guard let output = outputs[path.description] else { return "FALSE" }
            return compare(output, op, value)
        case .inList(let path, let values, let negated):
            guard let output = outputs[path.description] else { return negated ? "TRUE" : "FALSE" }
            let matches = values.isEmpty ? "FALSE" : values.map { compare(output, .equal, $0) }.combined("OR")
            return negated ? negate(matches) : matches
        case .exists(let path, let flag):
            guard let output = outputs[path.description] else { return flag ? "FALSE" : "TRUE" }
            return "\(output.expression) \(raw: flag ? "IS NOT NULL" : "IS NULL")"
        default:
            return "FALSE"
        }
    }

    /// One comparison with a constant. A group key holding a field's value compares with the kind checks of
    /// `where`; computed values, days and built-ins compare as SQL numbers or text.
    private func compare(_ output: AggregationOutput, _ op: Condition.Comparison, _ value: Value) -> SQLFragment {
        if let target = output.target {
            let conditions = ConditionCompiler(dialect: dialect, schema: nil)
            switch op {
            case .equal where value == .null: return "(\(output.expression) IS NULL OR \(dialect.hasKind(target, .null)))"
            case .equal: return conditions.matches(target, .equal, value)
            case .notEqual: return negate(compare(output, .equal, value))
            default: return conditions.matches(target, ScalarOperator(op), value)
            }
        }
        if value == .null {
            switch op {
            case .equal: return "\(output.expression) IS NULL"
            case .notEqual: return "\(output.expression) IS NOT NULL"
            default: return "FALSE"
            }
        }
        guard let bound = Self.binding(output.kind, value) else { return op == .notEqual ? "TRUE" : "FALSE" }
        if op == .notEqual { return negate("\(output.expression) = \(bind: bound)") }
        return "\(output.expression) \(raw: ScalarOperator(op).rawValue) \(bind: bound)"
    }

    /// The SQL value a constant compares as against a column of `kind`, or `nil` when the kinds differ.
    static func binding(_ kind: AggregationColumn.Kind, _ value: Value) -> SQLValue? {
        switch (kind, value) {
        case (.number, .int(let number)): .int(number)
        case (.number, .double(let number)): .double(number)
        case (.text, .string(let text)): .text(text)
        case (.isoDate, .date(let stamp)): .text(stamp.iso8601)
        case (.milliseconds, .date(let stamp)): .int(stamp.millisecondsSince1970)
        default: nil
        }
    }

    private func negate(_ condition: SQLFragment) -> SQLFragment {
        "(\(condition)) IS NOT TRUE"
    }
}
