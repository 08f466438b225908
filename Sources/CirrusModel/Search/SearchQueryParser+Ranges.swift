/// Ranges and comparisons on a field.
extension SearchQueryParser {
    /// One end of a range as written: its text (`nil` for an open `*`) and column.
    struct RangeOperand {
        var text: String?
        var column: Int
    }

    /// `[a TO b]`, `{a TO b}` or a mix; the current character is the opening bracket.
    mutating func parseRange(field: FieldPath) throws(APIError) -> SearchQuery {
        let open = column
        let lowerInclusive = current == "["
        index += 1
        skipSpace()
        let lower = try readRangeOperand(open: open)
        skipSpace()
        guard isAhead("TO"), index + 2 < characters.count, characters[index + 2].isWhitespace else {
            throw Self.invalid("the range at column \(open) has no TO: ranges are written [from TO to]")
        }
        index += 2
        skipSpace()
        let upper = try readRangeOperand(open: open)
        skipSpace()
        guard let close = current, close == "]" || close == "}" else {
            throw Self.invalid("the range at column \(open) is not closed with ] or }")
        }
        index += 1
        try refuseSuffix()
        return try range(
            field, lower: lower, lowerInclusive: lowerInclusive, upper: upper, upperInclusive: close == "]", column: open)
    }

    /// `>x`, `>=x`, `<x` or `<=x`; the current character is `>` or `<`.
    mutating func parseComparison(field: FieldPath) throws(APIError) -> SearchQuery {
        let start = column
        let isLower = current == ">"
        index += 1
        let inclusive = current == "="
        if inclusive { index += 1 }
        let operand = try readOperand(stoppingAt: [")"])
        guard !operand.isEmpty else { throw Self.invalid("the comparison at column \(start) has no value") }
        let bound = RangeOperand(text: operand, column: start)
        return isLower
            ? try range(field, lower: bound, lowerInclusive: inclusive, upper: nil, upperInclusive: false, column: start)
            : try range(field, lower: nil, lowerInclusive: false, upper: bound, upperInclusive: inclusive, column: start)
    }

    /// A bound of a bracketed range: quoted text, `*` (open), or characters up to a space or closing bracket.
    private mutating func readRangeOperand(open: Int) throws(APIError) -> RangeOperand {
        let start = column
        if current == "*", index + 1 < characters.count, characters[index + 1].isWhitespace || "]}".contains(characters[index + 1]) {
            index += 1
            return RangeOperand(text: nil, column: start)
        }
        let text = try readOperand(stoppingAt: ["]", "}"])
        guard !text.isEmpty else { throw Self.invalid("the range at column \(open) is missing a bound at column \(start)") }
        return RangeOperand(text: text, column: start)
    }

    /// Quoted text, or characters (escapes resolved) up to a space, one of `stops` or the end.
    private mutating func readOperand(stoppingAt stops: Set<Character>) throws(APIError) -> String {
        if current == "\"" { return try readQuoted() }
        var text = ""
        while let character = current, !character.isWhitespace, !stops.contains(character) {
            if character == "\\" {
                text.append(try readEscaped())
            } else {
                text.append(character)
                index += 1
            }
        }
        return text
    }

    /// The range leaf of two operands, typed as numbers or dates.
    private mutating func range(
        _ field: FieldPath, lower: RangeOperand?, lowerInclusive: Bool, upper: RangeOperand?, upperInclusive: Bool, column: Int
    ) throws(APIError) -> SearchQuery {
        let lowerBound = try Self.bound(lower, inclusive: lowerInclusive, roundsUp: !lowerInclusive)
        let upperBound = try Self.bound(upper, inclusive: upperInclusive, roundsUp: upperInclusive)
        guard lowerBound != nil || upperBound != nil else {
            throw Self.invalid("the range at column \(column) has no bound; _exists_:\(field) finds documents with a value")
        }
        if let lowerBound, let upperBound, !lowerBound.value.isSameKind(as: upperBound.value) {
            throw Self.invalid("the range at column \(column) compares a number with a date")
        }
        try countClause()
        return .leaf(.range(SearchRange(field: field, lower: lowerBound, upper: upperBound)))
    }

    /// A typed bound; `nil` for an open end.
    private static func bound(_ operand: RangeOperand?, inclusive: Bool, roundsUp: Bool) throws(APIError) -> SearchBound? {
        guard let operand, let text = operand.text else { return nil }
        guard let value = SearchRangeValue.parse(text, roundsUp: roundsUp) else {
            throw invalid("ranges compare numbers or dates: \(text) at column \(operand.column) is neither")
        }
        return SearchBound(value, isInclusive: inclusive)
    }
}
