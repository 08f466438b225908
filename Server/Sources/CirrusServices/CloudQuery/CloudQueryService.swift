package import CirrusModel
package import CirrusQueryLanguage
package import CirrusStorage

/// Runs CQL and BQL statements through ``ObjectService``, so that they share the REST API's validation,
/// permissions and SQL: a select is a find (or a statistics query), an insert creates one object per row, and an
/// update or delete writes the one object its `where` names, on the condition of the rest of the `where`.
package struct CloudQueryService: Sendable {
    package let objects: ObjectService

    package init(objects: ObjectService) {
        self.objects = objects
    }

    /// What a statement did.
    package enum Outcome: Sendable {
        /// A select: the objects found, the number matching when `count(*)` was selected, and the query (for its
        /// keys).
        case found(Query, objects: [StoredObject], count: Int?)
        /// A BQL statistics select: its rows in canonical JSON.
        case statistics(className: String, rows: [JSON])
        /// An insert: the objects created, in row order.
        case created(className: String, objects: [StoredObject])
        /// An update: the object after the write.
        case updated(StoredObject)
        /// A delete.
        case deleted(className: String, objectId: String)
    }

    /// Parses, compiles and runs one statement.
    /// - Parameters:
    ///   - values: the placeholder values in REST form.
    ///   - options: how conditions and dates are read in the caller's dialect.
    ///   - writeOptions: the id style and date zone of writes.
    ///   - dayOffsetMinutes: the zone in which BQL statistics group dates into days.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidStatement`` (with LeanCloud's "CQL syntax error.Detail:
    ///   Parse error at line L, column C: …" report) for a statement that does not parse or compile, and the
    ///   errors of the find, statistics or write it runs.
    package func execute(
        _ source: String, language: CloudQueryLanguage, values: [JSON], options: ConditionOptions, writeOptions: WriteOptions,
        dayOffsetMinutes: Int = 0, caller: Caller
    ) async throws -> Outcome {
        let statement = try Self.compile(source, language: language, values: values, options: options)
        switch statement {
        case .find(let find):
            let (found, count) = try await objects.find(find.query, withCount: find.counts, caller: caller)
            return .found(find.query, objects: found, count: count)
        case .aggregate(let aggregation):
            let rows = try await objects.aggregate(aggregation, caller: caller, dayOffsetMinutes: dayOffsetMinutes)
            return .statistics(className: aggregation.className, rows: rows)
        case .insert(let insert):
            var created: [StoredObject] = []
            for row in insert.rows {
                created.append(try await objects.create(insert.className, body: row, options: writeOptions, caller: caller))
            }
            return .created(className: insert.className, objects: created)
        case .update(let update):
            let outcome = try await objects.update(
                update.className, objectId: update.objectId, body: update.body, condition: update.condition, options: writeOptions, caller: caller
            )
            return .updated(outcome.object)
        case .delete(let delete):
            try await objects.delete(delete.className, objectIds: [delete.objectId], condition: delete.condition, caller: caller)
            return .deleted(className: delete.className, objectId: delete.objectId)
        }
    }

    /// The compiled statement, or the language's syntax error as an ``APIError``.
    static func compile(_ source: String, language: CloudQueryLanguage, values: [JSON], options: ConditionOptions) throws(APIError) -> CompiledStatement {
        do {
            return try StatementCompiler(language: language, values: values, options: options, now: .now()).compile(source)
        } catch {
            throw APIError(.invalidStatement, "\(language.name) syntax error.Detail: \(error.report(for: source))")
        }
    }
}
