/// A range on one field: `price:[10 TO 20]`, `date:{2020-01-01 TO *]`, `age:>=18`.
///
/// Bounds compare numbers or dates, never text; both bounds of one range are of the same kind. The server compares
/// them with the stored value (a number, or a date: `createdAt`, `updatedAt`, a `Date` field).
public struct SearchRange: Sendable, Hashable {
    public var field: FieldPath
    /// `nil` is open (`*`).
    public var lower: SearchBound?
    /// `nil` is open (`*`).
    public var upper: SearchBound?

    public init(field: FieldPath, lower: SearchBound?, upper: SearchBound?) {
        self.field = field
        self.lower = lower
        self.upper = upper
    }

    /// Whether `value` lies within the bounds; a value of the other kind (a date against numbers) does not.
    public func contains(_ value: SearchRangeValue) -> Bool {
        if let lower, !lower.admits(value, below: false) { return false }
        if let upper, !upper.admits(value, below: true) { return false }
        return true
    }
}

/// One end of a ``SearchRange``.
public struct SearchBound: Sendable, Hashable {
    public var value: SearchRangeValue
    /// `[`, `]`, `>=`, `<=` include the bound; `{`, `}`, `>`, `<` do not.
    public var isInclusive: Bool

    public init(_ value: SearchRangeValue, isInclusive: Bool) {
        self.value = value
        self.isInclusive = isInclusive
    }

    /// Whether `other` is on the admitted side of this bound: below it when `below` (an upper bound), else above.
    func admits(_ other: SearchRangeValue, below: Bool) -> Bool {
        guard let order = other.compared(to: value) else { return false }
        if order == 0 { return isInclusive }
        return below ? order < 0 : order > 0
    }
}

/// A bound's value.
public enum SearchRangeValue: Sendable, Hashable {
    case number(Double)
    /// A date written `2020-01-01` (midnight UTC) or as an ISO 8601 date-time (`2020-01-01T08:00:00Z`, an offset, a
    /// fraction; no zone is UTC).
    case date(Timestamp)

    /// -1, 0 or 1 as `self` is below, at or above `other`; `nil` for values of different kinds.
    func compared(to other: SearchRangeValue) -> Int? {
        switch (self, other) {
        case (.number(let left), .number(let right)): left < right ? -1 : left > right ? 1 : 0
        case (.date(let left), .date(let right)): left < right ? -1 : left > right ? 1 : 0
        default: nil
        }
    }

    /// Whether both values are numbers, or both dates.
    func isSameKind(as other: SearchRangeValue) -> Bool {
        switch (self, other) {
        case (.number, .number), (.date, .date): true
        default: false
        }
    }

    /// Reads a bound as written: a decimal number (`-1.5`, `2e3`), else a date.
    ///
    /// A date without a time (`2020-01-31`) stands for its whole day, as Elasticsearch reads it: its first millisecond
    /// for `>=` and `<` (`[` lower, `}` upper), its last for `>` and `<=` (`{` lower, `]` upper), which `roundsUp`
    /// selects.
    static func parse(_ text: String, roundsUp: Bool) -> SearchRangeValue? {
        if isDecimal(text), let number = Double(text), number.isFinite { return .number(number) }
        if isCalendarDate(text), let midnight = Timestamp(parsing: text + "T00:00:00Z") {
            return .date(roundsUp ? Timestamp(millisecondsSince1970: midnight.millisecondsSince1970 + 86_399_999) : midnight)
        }
        if let timestamp = Timestamp(parsing: text) { return .date(timestamp) }
        return nil
    }

    /// `-?digits[.digits][e[+-]digits]`, which `Double` reads without hexadecimal, `inf` or `nan`.
    private static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let integer = bytes.prefix { $0.isASCIIDigit }
        bytes = bytes.dropFirst(integer.count)
        var digits = integer.count
        if bytes.first == UInt8(ascii: ".") {
            let fraction = bytes.dropFirst().prefix { $0.isASCIIDigit }
            digits += fraction.count
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        guard digits > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix { $0.isASCIIDigit }
            guard !exponent.isEmpty else { return false }
            bytes = bytes.dropFirst(exponent.count)
        }
        return bytes.isEmpty
    }

    /// `YYYY-MM-DD`.
    private static func isCalendarDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || $0.element.isASCIIDigit }
    }
}
