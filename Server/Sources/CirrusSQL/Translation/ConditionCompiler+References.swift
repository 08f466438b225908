import CirrusModel

/// Sub-queries and relations: `$inQuery`, `$notInQuery`, `$select`, `$dontSelect`, `$relatedTo`, all in SQL.
///
/// Inner queries become `IN (SELECT … LIMIT n)` sub-selects over the inner class's table (from ``tables``),
/// restricted to the objects ``readers`` may read, and find at most their `limit` objects as in LeanCloud (after
/// their `skip`, oldest first).
/// A sub-query on a class that does not exist finds nothing.
extension ConditionCompiler {
    func compileReference(_ condition: Condition) -> SQLFragment {
        switch condition {
        case .inQuery(let path, let query, let negated):
            let matched = inQuery(path, query)
            return negated ? negate(matched) : matched
        case .select(let path, let query, let key, let negated):
            let matched = select(path, query, key: key)
            return negated ? negate(matched) : matched
        case .relatedTo(let owner, let key):
            return relatedTo(owner, key: key)
        default:
            return "FALSE"
        }
    }

    /// `SELECT <value> FROM <inner table> WHERE <inner condition> AND <readable> LIMIT n`, or `nil` when the
    /// inner class does not exist. `value` builds the selected expression with the inner class's compiler.
    func subSelect(_ query: SubQuery, value: (ConditionCompiler) -> (SQLFragment, SQLFragment?)) -> SQLFragment? {
        guard let entry = tables.entry(for: query.className) else { return nil }
        let inner = sub(className: query.className, schema: entry.schema)
        let (selected, filter) = value(inner)
        var condition = inner.compileReadable(query.condition)
        if let filter { condition = "\(condition) AND \(filter)" }
        let select: SQLFragment = "SELECT \(selected) FROM \(raw: dialect.quote(entry.table)) WHERE \(condition)"
        guard query.skip > 0 else { return select + " LIMIT \(bind: .int(Int64(query.limit)))" }
        // Skipping needs an order: the oldest first, as the in-memory store and the SDKs' paging expect.
        return select + " ORDER BY \"created_at\", \"id\" LIMIT \(bind: .int(Int64(query.limit))) OFFSET \(bind: .int(Int64(query.skip)))"
    }

    /// The field (or an element of it) is a Pointer to the inner class whose objectId the sub-query finds.
    private func inQuery(_ path: FieldPath, _ query: SubQuery) -> SQLFragment {
        guard let ids = subSelect(query, value: { _ in (SQLFragment(dialect.quote("id")), nil) }) else { return "FALSE" }
        return onFieldOrElementsOnce(path) { element in
            let className = dialect.member("className", of: element)
            let objectId = dialect.stringValue(dialect.member("objectId", of: element))
            return "(\(dialect.hasKind(element, .object)) AND \(dialect.compare(className, .equal, .string(query.className))) "
                + "AND \(objectId) IN (\(ids)))"
        }
    }

    /// The field (or an element of an array field) equals the `key` value of an object the sub-query finds.
    /// `objectId` compares as a string on either side, `createdAt` and `updatedAt` as Dates.
    private func select(_ path: FieldPath, _ query: SubQuery, key: FieldPath) -> SQLFragment {
        let values = subSelect(query) { inner in
            if !key.isNested, key.root == "objectId" { return (dialect.comparableText(SQLFragment(dialect.quote("id"))), nil) }
            if !key.isNested, let column = Self.builtInColumns[key.root] {
                return (dialect.comparableDate(milliseconds: SQLFragment(dialect.quote(column))), nil)
            }
            let field = inner.target(key)
            return (dialect.comparableValue(field), dialect.isPresent(field))
        }
        guard let values else { return "FALSE" }
        if !path.isNested, let column = Self.builtInColumns[path.root] {
            let quoted = SQLFragment(dialect.quote(column))
            let value = column == "id" ? dialect.comparableText(quoted) : dialect.comparableDate(milliseconds: quoted)
            return "\(value) IN (\(values))"
        }
        return onFieldOrElementsOnce(path) { element in "\(dialect.comparableValue(element)) IN (\(values))" }
    }

    /// The object is a member of `owner`'s Relation field `key`, per the relation join table, and the owner is an
    /// object the ``readers`` may read: a relation lists nothing of an object the caller cannot see.
    private func relatedTo(_ owner: Pointer, key: String) -> SQLFragment {
        let relations = dialect.quote(SystemSchema.relationsTable)
        var members: SQLFragment = "SELECT \"target_id\" FROM \(raw: relations) WHERE \"owner_class\" = \(bind: .text(owner.className)) "
            + "AND \"field\" = \(bind: .text(key)) AND \"owner_id\" = \(bind: .text(owner.objectId))"
        if let className { members.append(" AND \"target_class\" = \(bind: .text(className))") }
        let related: SQLFragment = "\(raw: dialect.quote("id")) IN (\(members))"
        guard let ownerReadable = readable(by: readers) else { return related }
        guard let entry = tables.entry(for: owner.className) else { return "FALSE" }
        let ownerRow: SQLFragment = "SELECT 1 FROM \(raw: dialect.quote(entry.table)) WHERE \(raw: dialect.quote("id")) = "
            + "\(bind: .text(owner.objectId)) AND \(ownerReadable)"
        return "(EXISTS (\(ownerRow)) AND \(related))"
    }

    /// Equality and `$in` on a Relation field: the object's relation holds one of the pointed-to objects (the
    /// SDKs' reverse relation query, `{"tags": <Pointer>}`). `nil` when `path` is not a Relation field the
    /// schema knows, or a value is not a pointer to its target class (then nothing matches through it).
    func relationMembership(_ path: FieldPath, _ values: [Value]) -> SQLFragment? {
        guard !path.isNested, let className, case .relation(let targetClass)? = schema?.type(of: path.root) else { return nil }
        let ids = values.compactMap { value -> SQLValue? in
            guard case .pointer(let pointer) = value, pointer.className == targetClass else { return nil }
            return .text(pointer.objectId)
        }
        guard !ids.isEmpty else { return "FALSE" }
        let relations = dialect.quote(SystemSchema.relationsTable)
        let owners: SQLFragment = "SELECT \"owner_id\" FROM \(raw: relations) WHERE \"owner_class\" = \(bind: .text(className)) "
            + "AND \"field\" = \(bind: .text(path.root)) AND \(dialect.isIn("\"target_id\"", ids))"
        return "\(raw: dialect.quote("id")) IN (\(owners))"
    }
}
