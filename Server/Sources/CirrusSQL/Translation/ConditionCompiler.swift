package import CirrusModel

/// Compiles a ``Condition`` into a SQL condition over one object table, in any ``SQLDialect``.
///
/// Semantics follow LeanCloud/Parse (MongoDB): equality on an array field means "contains", `$ne` and
/// `$nin` match objects without the field, `{"f": null}` matches a missing or null field, values of
/// different types never compare equal, and ordering compares numbers with numbers, strings with strings
/// and dates with dates. The class schema, when it knows a field's type, removes needless branches.
package struct ConditionCompiler {
    package let dialect: any SQLDialect
    package let schema: ClassSchema?
    /// The class of the compiled table, for `$relatedTo` (`schema`'s class when not given).
    package let className: String?
    /// The classes sub-queries may read.
    package let tables: ClassTables
    /// The ACL principals of the caller, for sub-queries (see ``readable(by:)``); `nil` for the master key.
    package let readers: [String]?
    private let aliases: AliasCounter

    /// The document column of object tables.
    package static let documentColumn = "data"

    package init(
        dialect: any SQLDialect, schema: ClassSchema?, aliases: AliasCounter = AliasCounter(), className: String? = nil,
        tables: ClassTables = ClassTables(), readers: [String]? = nil
    ) {
        self.dialect = dialect
        self.schema = schema
        self.aliases = aliases
        self.className = className ?? schema?.className
        self.tables = tables
        self.readers = readers
    }

    /// A compiler for another class's table that shares this one's aliases, tables and readers.
    func sub(className: String, schema: ClassSchema?) -> ConditionCompiler {
        ConditionCompiler(dialect: dialect, schema: schema, aliases: aliases, className: className, tables: tables, readers: readers)
    }

    /// The SQL condition for `condition`.
    package func compile(_ condition: Condition) -> SQLFragment {
        switch condition {
        case .always: return "TRUE"
        case .and(let parts): return parts.isEmpty ? "TRUE" : parts.map(compile).combined("AND")
        case .or(let parts): return parts.isEmpty ? "FALSE" : parts.map(compile).combined("OR")
        case .nor(let parts): return parts.isEmpty ? "TRUE" : negate(parts.map(compile).combined("OR"))
        case .compare(let path, let op, let value): return compare(path, op, value)
        case .inList(let path, let values, let negated):
            let condition = matchesAny(path, values)
            return negated ? negate(condition) : condition
        case .containsAll(let path, let values):
            guard !values.isEmpty else { return "FALSE" }
            return containsAll(path, UpdateCompiler.distinct(values))
        case .exists(let path, let flag): return exists(path, flag)
        case .size(let path, let count): return dialect.arrayCount(target(path), equals: count)
        case .regex(let path, let pattern, let options): return regex(path, pattern, options)
        case .inQuery, .select, .relatedTo: return compileReference(condition)
        case .near, .withinBox, .withinPolygon, .withinSphere: return compileGeo(condition)
        case .text(let path, let search): return textSearch(path, search)
        }
    }

    /// `NOT`, where an unknown (NULL) condition counts as false, so that absent fields satisfy negations. `IS NOT TRUE`
    /// has the truth table of `NOT COALESCE(…, FALSE)` with one grammar level less, so SQLite's parser (about a
    /// hundred levels deep) takes `$nor` nested more than twice as deep.
    func negate(_ condition: SQLFragment) -> SQLFragment {
        "(\(condition)) IS NOT TRUE"
    }

    func target(_ path: FieldPath) -> JSONTarget {
        dialect.target(column: Self.documentColumn, path: path)
    }

    func nextAlias() -> String {
        aliases.next()
    }

    /// How a field holds its values, from the schema.
    enum Shape {
        case scalar, array, unknown
    }

    func shape(of path: FieldPath) -> Shape {
        guard let type = schema?.type(at: path) else { return .unknown }
        return type == .array ? .array : .scalar
    }

    /// ``onFieldOrElements(_:_:)`` for a condition that holds a sub-query: written once whatever the shape, so that
    /// sub-queries nested in one another do not double the statement at each level.
    func onFieldOrElementsOnce(_ path: FieldPath, _ condition: (JSONTarget) -> SQLFragment) -> SQLFragment {
        guard shape(of: path) == .unknown else { return onFieldOrElements(path, condition) }
        return dialect.itselfOrAnyElement(of: target(path), alias: nextAlias(), where: condition)
    }

    /// Applies `condition` to the field itself and, where it may be an array, to its elements.
    func onFieldOrElements(_ path: FieldPath, _ condition: (JSONTarget) -> SQLFragment) -> SQLFragment {
        let field = target(path)
        switch shape(of: path) {
        case .scalar: return condition(field)
        case .array: return dialect.anyElement(of: field, alias: nextAlias(), where: condition)
        case .unknown:
            return "(\(condition(field)) OR \(dialect.anyElement(of: field, alias: nextAlias(), where: condition)))"
        }
    }
}

/// Hands out statement-unique aliases for array iteration.
package final class AliasCounter {
    private var count = 0

    package init() {}

    func next() -> String {
        count += 1
        return "e\(count)"
    }
}
