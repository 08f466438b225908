/// The pieces of statistics queries that differ between dialects. Group expressions carry no bound
/// parameters, so that PostgreSQL recognises them again in `HAVING` and `ORDER BY`.
package protocol AggregationDialect: SQLDialect {
    /// The JSON value at `target` as the expression to group by: equal values give equal keys.
    func groupValue(_ target: JSONTarget) -> SQLFragment

    /// A group value as JSON text, for the select list.
    func groupValueText(_ groupValue: SQLFragment) -> SQLFragment

    /// The number at `target` as a SQL number, NULL when it holds no number.
    func numberOrNull(_ target: JSONTarget) -> SQLFragment

    /// The sum of the numbers `number` gives (0 when there are none): exact while every number is an integer and
    /// the sum fits in 64 bits, else the double nearest to it, as MongoDB's `$sum` and the stores' `Increment` do.
    func sum(_ number: SQLFragment) -> SQLFragment

    /// `text` collated by its bytes, so that `MAX` and `MIN` agree between stores.
    func binaryText(_ text: SQLFragment) -> SQLFragment

    /// The day (`YYYY-MM-DD`) of a time given in milliseconds since 1970, at `offsetMinutes` east of UTC.
    func day(ofMilliseconds milliseconds: SQLFragment, offsetMinutes: Int) -> SQLFragment

    /// The day (`YYYY-MM-DD`) of an ISO 8601 text in UTC, at `offsetMinutes` east of UTC.
    func day(ofISO iso: SQLFragment, offsetMinutes: Int) -> SQLFragment
}

extension SQLiteDialect: AggregationDialect {
    /// The JSON text of the value (`->`), so that the string `"1"` and the number `1` stay apart.
    package func groupValue(_ target: JSONTarget) -> SQLFragment {
        json(target)
    }

    package func groupValueText(_ groupValue: SQLFragment) -> SQLFragment {
        groupValue
    }

    package func numberOrNull(_ target: JSONTarget) -> SQLFragment {
        "CASE WHEN \(hasKind(target, .number)) THEN \(value(target)) END"
    }

    package func binaryText(_ text: SQLFragment) -> SQLFragment {
        text
    }

    /// SQLite's `SUM` fails on an integer overflow, so integers are summed in two halves that cannot overflow (the
    /// high 32 bits, arithmetic shift, and the low 32), joined with the carry; SQLite's arithmetic turns the join
    /// into a double when the total does not fit. With any double among the numbers, `TOTAL`.
    package func sum(_ number: SQLFragment) -> SQLFragment {
        let high: SQLFragment = "COALESCE(SUM(\(number) >> 32), 0)"
        let low: SQLFragment = "COALESCE(SUM(\(number) & 4294967295), 0)"
        return "(CASE WHEN COUNT(CASE WHEN typeof(\(number)) = 'real' THEN 1 END) > 0 THEN TOTAL(\(number)) "
            + "ELSE (\(high) + (\(low) >> 32)) * 4294967296 + (\(low) & 4294967295) END)"
    }

    package func day(ofMilliseconds milliseconds: SQLFragment, offsetMinutes: Int) -> SQLFragment {
        "date((\(milliseconds) + \(raw: String(Int64(offsetMinutes) * 60_000))) / 1000, 'unixepoch')"
    }

    package func day(ofISO iso: SQLFragment, offsetMinutes: Int) -> SQLFragment {
        "date(\(iso), \(raw: literal("\(offsetMinutes >= 0 ? "+" : "")\(offsetMinutes) minutes")))"
    }
}

extension PostgresDialect: AggregationDialect {
    package func groupValue(_ target: JSONTarget) -> SQLFragment {
        json(target)
    }

    package func groupValueText(_ groupValue: SQLFragment) -> SQLFragment {
        "\(groupValue)::text"
    }

    package func numberOrNull(_ target: JSONTarget) -> SQLFragment {
        "CASE WHEN \(hasKind(target, .number)) THEN \(json(target))::numeric END"
    }

    package func binaryText(_ text: SQLFragment) -> SQLFragment {
        "(\(text)) COLLATE \"C\""
    }

    /// `numeric` sums never overflow; a total beyond 64 bits reads back as the nearest double.
    package func sum(_ number: SQLFragment) -> SQLFragment {
        "COALESCE(SUM(\(number)), 0)"
    }

    package func day(ofMilliseconds milliseconds: SQLFragment, offsetMinutes: Int) -> SQLFragment {
        "to_char(TIMESTAMP 'epoch' + (\(milliseconds) + \(raw: String(Int64(offsetMinutes) * 60_000))) * INTERVAL '1 millisecond', 'YYYY-MM-DD')"
    }

    package func day(ofISO iso: SQLFragment, offsetMinutes: Int) -> SQLFragment {
        "to_char((CAST(\(iso) AS timestamptz) AT TIME ZONE 'UTC') + INTERVAL \(raw: literal("\(offsetMinutes) minutes")), 'YYYY-MM-DD')"
    }
}
