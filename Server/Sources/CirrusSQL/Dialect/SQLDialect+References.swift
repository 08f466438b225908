/// The comparable JSON values of sub-queries (`$select`), per dialect.
extension SQLiteDialect {
    /// Numbers as SQL numbers (so `1` equals `1.0`), everything else as its JSON text: strings quoted,
    /// `true`, `false`, `null`, objects and arrays minified.
    package func comparableValue(_ target: JSONTarget) -> SQLFragment {
        let kind = type(target)
        let scalar = value(target)
        return "CASE WHEN \(kind) IN ('integer', 'real') THEN \(scalar) WHEN \(kind) = 'text' THEN json_quote(\(scalar)) "
            + "WHEN \(kind) IN ('object', 'array') THEN json(\(scalar)) ELSE \(kind) END"
    }

    package func comparableText(_ text: SQLFragment) -> SQLFragment {
        "json_quote(\(text))"
    }

    /// Whole seconds through `strftime`, the milliseconds appended as integers, so no floating-point rounding.
    package func comparableDate(milliseconds column: SQLFragment) -> SQLFragment {
        let iso: SQLFragment = "strftime('%Y-%m-%dT%H:%M:%S', \(column) / 1000, 'unixepoch') || printf('.%03dZ', \(column) % 1000)"
        return "json_object('__type', 'Date', 'iso', \(iso))"
    }
}

extension PostgresDialect {
    /// The JSONB value: JSONB equality compares numbers by value and objects whatever their key order.
    package func comparableValue(_ target: JSONTarget) -> SQLFragment {
        json(target)
    }

    package func comparableText(_ text: SQLFragment) -> SQLFragment {
        "to_jsonb(\(text))"
    }

    package func comparableDate(milliseconds column: SQLFragment) -> SQLFragment {
        let seconds: SQLFragment = "to_char(to_timestamp(\(column) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS')"
        let iso: SQLFragment = "\(seconds) || '.' || lpad((\(column) % 1000)::text, 3, '0') || 'Z'"
        return "jsonb_build_object('__type', 'Date', 'iso', \(iso))"
    }
}
