package import CirrusModel

/// Compiles a parsed CQL or BQL statement, with its placeholder values, into the query model of the REST API
/// (``Query``, ``Condition``, ``Aggregation``, REST write bodies), so that statements share the REST API's
/// validation, permissions and SQL.
///
/// Pure: the clock is passed in as `now` (for `current_timestamp()`).
package struct StatementCompiler: Sendable {
    package var language: CloudQueryLanguage
    /// The placeholder values, in REST form, one per `?`.
    package var values: [JSON]
    /// How conditions are read (Bmob: dates in Beijing time, a 100 km default `near` distance).
    package var options: ConditionOptions
    package var now: Timestamp

    /// The `limit` of a find without one.
    package static let defaultLimit = 100
    /// The largest `limit` accepted; larger ones are clamped to it, as REST finds are.
    package static let maximumLimit = 1000

    package init(language: CloudQueryLanguage, values: [JSON] = [], options: ConditionOptions = ConditionOptions(), now: Timestamp) {
        self.language = language
        self.values = values
        self.options = options
        self.now = now
    }

    /// Parses and compiles `source`.
    /// - Throws: ``CloudQueryError`` for any syntax error, a placeholder without a value or a value without a
    ///   placeholder, and a value or clause the REST model refuses, at the position of the offending part.
    package func compile(_ source: String) throws(CloudQueryError) -> CompiledStatement {
        try compile(try language.parse(source))
    }

    /// Compiles a parsed statement.
    /// - Throws: ``CloudQueryError`` as ``compile(_:)-(String)``.
    package func compile(_ parsed: ParsedStatement) throws(CloudQueryError) -> CompiledStatement {
        try checkPlaceholders(parsed)
        let compiled: CompiledStatement
        switch parsed.statement {
        case .select(let select): compiled = try compileSelect(select)
        case .insert(let insert): compiled = .insert(try compileInsert(insert))
        case .update(let update): compiled = .update(try compileUpdate(update))
        case .delete(let delete): compiled = .delete(try compileDelete(delete))
        }
        do {
            try options.limits.check(compiled)
        } catch {
            throw Self.failure(error, at: SourcePosition(line: 1, column: 1))
        }
        return compiled
    }

    private func checkPlaceholders(_ parsed: ParsedStatement) throws(CloudQueryError) {
        let count = parsed.placeholders.count
        if values.count < count {
            throw CloudQueryError(
                at: parsed.placeholders[values.count],
                "no value for placeholder \(values.count + 1): \(values.count) value\(values.count == 1 ? " was" : "s were") given for \(count) placeholder\(count == 1 ? "" : "s")"
            )
        }
        if values.count > count {
            throw CloudQueryError(at: parsed.end, "\(values.count) values were given for \(count) placeholder\(count == 1 ? "" : "s")")
        }
    }

    /// A column as a field path.
    func path(_ column: Column) throws(CloudQueryError) -> FieldPath {
        do {
            return try FieldPath(parsing: column.description)
        } catch {
            throw CloudQueryError(at: column.position, "invalid key '\(column)'")
        }
    }

    /// An APIError from the REST model, reported at `position`.
    static func failure(_ error: APIError, at position: SourcePosition) -> CloudQueryError {
        var message = error.message
        if message.hasSuffix(".") { message.removeLast() }
        return CloudQueryError(at: position, message)
    }
}
