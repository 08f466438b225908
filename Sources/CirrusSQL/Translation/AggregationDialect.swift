/// The pieces of statistics queries that differ between dialects. Group expressions carry no bound
/// parameters, so that PostgreSQL recognises them again in `HAVING` and `ORDER BY`.
public protocol AggregationDialect: SQLDialect {
    /// The JSON value at `target` as the expression to group by: equal values give equal keys.
    func groupValue(_ target: JSONTarget) -> SQLFragment

    /// A group value as JSON text, for the select list.
    func groupValueText(_ groupValue: SQLFragment) -> SQLFragment

    /// The number at `target` as a SQL number, NULL when it holds no number.
    func numberOrNull(_ target: JSONTarget) -> SQLFragment

    /// `text` collated by its bytes, so that `MAX` and `MIN` agree between stores.
    func binaryText(_ text: SQLFragment) -> SQLFragment

    /// The day (`YYYY-MM-DD`) of a time given in milliseconds since 1970, at `offsetMinutes` east of UTC.
    func day(ofMilliseconds milliseconds: SQLFragment, offsetMinutes: Int) -> SQLFragment

    /// The day (`YYYY-MM-DD`) of an ISO 8601 text in UTC, at `offsetMinutes` east of UTC.
    func day(ofISO iso: SQLFragment, offsetMinutes: Int) -> SQLFragment
}

extension SQLiteDialect: AggregationDialect {
    /// The JSON text of the value (`->`), so that the string `"1"` and the number `1` stay apart.
    public func groupValue(_ target: JSONTarget) -> SQLFragment {
        json(target)
    }

    public func groupValueText(_ groupValue: SQLFragment) -> SQLFragment {
        groupValue
    }

    public func numberOrNull(_ target: JSONTarget) -> SQLFragment {
        "CASE WHEN \(hasKind(target, .number)) THEN \(value(target)) END"
    }

    public func binaryText(_ text: SQLFragment) -> SQLFragment {
        text
    }

    public func day(ofMilliseconds milliseconds: SQLFragment, offsetMinutes: Int) -> SQLFragment {
        "date((\(milliseconds) + \(raw: String(Int64(offsetMinutes) * 60_000))) / 1000, 'unixepoch')"
    }

    public func day(ofISO iso: SQLFragment, offsetMinutes: Int) -> SQLFragment {
        "date(\(iso), \(raw: literal("\(offsetMinutes >= 0 ? "+" : "")\(offsetMinutes) minutes")))"
    }
}

extension PostgresDialect: AggregationDialect {
    public func groupValue(_ target: JSONTarget) -> SQLFragment {
        json(target)
    }

    public func groupValueText(_ groupValue: SQLFragment) -> SQLFragment {
        "\(groupValue)::text"
    }

    public func numberOrNull(_ target: JSONTarget) -> SQLFragment {
        "CASE WHEN \(hasKind(target, .number)) THEN \(json(target))::numeric END"
    }

    public func binaryText(_ text: SQLFragment) -> SQLFragment {
        "(\(text)) COLLATE \"C\""
    }

    public func day(ofMilliseconds milliseconds: SQLFragment, offsetMinutes: Int) -> SQLFragment {
        "to_char(TIMESTAMP 'epoch' + (\(milliseconds) + \(raw: String(Int64(offsetMinutes) * 60_000))) * INTERVAL '1 millisecond', 'YYYY-MM-DD')"
    }

    public func day(ofISO iso: SQLFragment, offsetMinutes: Int) -> SQLFragment {
        "to_char((CAST(\(iso) AS timestamptz) AT TIME ZONE 'UTC') + INTERVAL \(raw: literal("\(offsetMinutes) minutes")), 'YYYY-MM-DD')"
    }
}
