package import CirrusModel

/// Everything that differs between the SQL of SQLite (JSON1 over text) and PostgreSQL (JSONB).
///
/// The compilers above decide *what* a query or an update means (null handling, arrays, built-in
/// columns, negation); a dialect only says *how* one JSON primitive is written.
package protocol SQLDialect: Sendable {
    /// A short name for logs and tests: `sqlite`, `postgres`.
    var name: String { get }

    /// How the database keeps and queries search indexes.
    var searchFlavor: any SearchFlavor { get }

    /// Whether reading a JSON `null` at a path gives SQL NULL, so that every comparison with it is unknown
    /// (SQLite's `json_extract`); PostgreSQL's `jsonb` orders `null` below numbers instead.
    var readsJSONNullAsSQLNull: Bool { get }

    /// The text of the parameter at `position` (1-based): `?` or `$1`.
    func placeholder(_ position: Int) -> String

    /// Column types for the object tables.
    var documentColumnType: String { get }
    var integerColumnType: String { get }
    /// A 64-bit integer primary key the database numbers itself, in increasing order (a queue's order).
    var serialPrimaryKey: String { get }

    // MARK: Reading JSON

    /// The value at `path` of the JSON document in `column`.
    func target(column: String, path: FieldPath) -> JSONTarget

    /// The member `key` of the object `target` (`iso` of a Date, `objectId` of a Pointer).
    func member(_ key: String, of target: JSONTarget) -> JSONTarget

    /// True when `target` holds a value of `kind`; false or NULL otherwise (NULL when absent).
    func hasKind(_ target: JSONTarget, _ kind: JSONKind) -> SQLFragment

    /// True when `target` is present (JSON `null` counts as present).
    func isPresent(_ target: JSONTarget) -> SQLFragment

    /// `target <op> operand` for a scalar of the given kind, assuming the kind was already checked.
    func compare(_ target: JSONTarget, _ op: ScalarOperator, _ operand: ScalarOperand) -> SQLFragment

    /// True when `target` orders above JSON `null` (on the expression ``compare(_:_:_:)`` puts on the left for
    /// numbers), so that an upper bound on a Number field leaves its `null`s out and stays one index range.
    func isAboveNull(_ target: JSONTarget) -> SQLFragment

    /// `target IN (operands)` for scalars of one kind, assuming the kind was already checked. A list longer than
    /// ``SQLLists/inlineLength`` travels as one JSON array parameter.
    func compare(_ target: JSONTarget, in operands: [ScalarOperand]) -> SQLFragment

    /// `expression IN (values)` for SQL values of one type (the `id` text, times in milliseconds); a list longer than
    /// ``SQLLists/inlineLength`` travels as one JSON array parameter.
    func isIn(_ expression: SQLFragment, _ values: [SQLValue]) -> SQLFragment

    /// The most parameters one statement may bind (SQLite's `SQLITE_MAX_VARIABLE_NUMBER`, PostgreSQL's 65 535).
    var maximumParameters: Int { get }

    /// True when `target` is an array with `count` elements.
    func arrayCount(_ target: JSONTarget, equals count: Int64) -> SQLFragment

    /// The value of a string target as SQL text.
    func stringValue(_ target: JSONTarget) -> SQLFragment

    /// True when the SQL text `text` matches the PCRE-style `pattern` with Mongo `options`.
    func regexMatch(_ text: SQLFragment, pattern: String, options: String) -> SQLFragment

    /// True when `target` is an array with an element satisfying `condition`.
    func anyElement(of target: JSONTarget, alias: String, where condition: (JSONTarget) -> SQLFragment) -> SQLFragment

    /// True when the values of `target` (itself, or its elements when it is an array) include each of `operands`,
    /// all strings or all numbers, distinct by value; the operands travel as one parameter (a long `$all`).
    func holdsAll(_ target: JSONTarget, _ kind: JSONKind, _ operands: [ScalarOperand], alias: String) -> SQLFragment

    /// True when `target` itself or, when it is an array, one of its elements satisfies `condition`, with
    /// `condition` written once (it may hold a sub-query, which must not be repeated).
    func itselfOrAnyElement(of target: JSONTarget, alias: String, where condition: (JSONTarget) -> SQLFragment) -> SQLFragment

    /// The expression to order by.
    func sortExpression(_ target: JSONTarget) -> SQLFragment

    /// The expressions that ``compare(_:_:_:)`` puts on the left for `target`, which an index must be built on
    /// for the planner to use it: one for numbers and equality, and for `textual` values (strings, the `iso`
    /// of dates) another for ordered string comparisons where the dialect writes those differently.
    func comparedExpressions(_ target: JSONTarget, textual: Bool) -> [SQLFragment]

    /// A condition an inverted index can answer that holds whenever the array `target` has one of `strings` as an
    /// element (it may also hold otherwise: callers keep their exact condition beside it), or `nil` when the dialect
    /// has no such index. Built on ``arrayIndexExpression(_:)``.
    func arrayHoldsAnyPrefilter(_ target: JSONTarget, of strings: [String]) -> SQLFragment?

    /// An `ORDER BY` term for a field the schema records as `type` (a Number, or the text of a String or a Date's
    /// `iso`) that orders exactly as ``sortExpression(_:)`` does (missing and `null` first, ascending) on the very
    /// expression ``IndexStatements`` indexes, so the database reads the order from the index; `nil` when the dialect's
    /// ``sortExpression(_:)`` already is that expression.
    func typedSortTerm(_ target: JSONTarget, type: FieldType, descending: Bool) -> SQLFragment?

    /// What follows each expression of an expression index (PostgreSQL: `NULLS FIRST`, the order of
    /// ``typedSortTerm(_:type:descending:)``, so that one index serves both directions).
    var indexOrderSuffix: String { get }

    /// The expression and access method of the inverted index on the array `target` (PostgreSQL's GIN), or `nil`.
    func arrayIndexExpression(_ target: JSONTarget) -> (method: String, expression: SQLFragment)?

    // MARK: Sub-queries

    /// An expression equal for equal JSON values at `target` (numbers by value) and different across kinds,
    /// NULL when absent; `$select` compares a field with another table's values through it.
    func comparableValue(_ target: JSONTarget) -> SQLFragment

    /// ``comparableValue(_:)`` of a JSON string holding the SQL text `text` (the `id` column).
    func comparableText(_ text: SQLFragment) -> SQLFragment

    /// ``comparableValue(_:)`` of the stored Date `{"__type":"Date","iso":…}` for a column of milliseconds since
    /// 1970 (`created_at`, `updated_at`), the ISO text always with three fraction digits, as the wire writes it.
    func comparableDate(milliseconds column: SQLFragment) -> SQLFragment

    // MARK: Geo

    /// The number at `target` as a floating-point SQL value; NULL when absent (and, where the dialect can
    /// tell cheaply, when not a number).
    func doubleValue(_ target: JSONTarget) -> SQLFragment

    /// The great-circle distance in radians of arc between the point at `latitude`/`longitude` (degrees, SQL
    /// expressions) and `center`; NULL when either coordinate is NULL.
    func sphericalDistance(latitude: SQLFragment, longitude: SQLFragment, to center: GeoPoint) -> SQLFragment

    /// True when the point at `latitude`/`longitude` lies inside `polygon` or on its boundary, planar with
    /// longitude as x (as ``GeoPoint/isInside(polygon:)``).
    func pointInPolygon(latitude: SQLFragment, longitude: SQLFragment, polygon: [GeoPoint]) -> SQLFragment

    // MARK: Writing JSON

    /// A JSON value given as canonical text, usable as a JSON argument.
    func jsonLiteral(_ json: JSON) -> SQLFragment

    /// A parameter holding a whole document (JSON text) for a document column.
    func documentParameter(_ json: JSON) -> SQLFragment

    /// A parameter holding a whole document already encoded as JSON text.
    func documentParameter(text: String) -> SQLFragment

    /// The select-list expression that reads a JSON column back as text.
    func documentText(_ column: String) -> String

    /// The document `document` with `value` stored at `path`, creating missing parent objects.
    func setting(_ document: SQLFragment, column: String, path: FieldPath, to value: SQLFragment) -> SQLFragment

    /// The document without the key at `path`.
    func removing(_ document: SQLFragment, path: FieldPath) -> SQLFragment

    /// `current + amount` as a JSON number, where a missing current value counts as 0.
    func incremented(_ current: JSONTarget, by amount: Value) -> SQLFragment

    /// `current <op> operand` on integers as a JSON number, where a missing value counts as 0.
    func bitwise(_ current: JSONTarget, _ op: BitOperator, _ operand: Int64) -> SQLFragment

    /// The array at `current` (empty when absent) with `elements` appended.
    func appending(_ current: JSONTarget, _ elements: [Value]) -> SQLFragment

    /// The array at `current` with each of `elements` appended unless an equal element is present.
    /// `isElement` tests an element of the current array against one new value.
    func appendingUnique(
        _ current: JSONTarget, _ elements: [Value], alias: String, isElement: (JSONTarget, Value) -> SQLFragment
    ) -> SQLFragment

    /// The array at `current` without the elements for which `isRemoved` holds.
    func removing(from current: JSONTarget, alias: String, where isRemoved: (JSONTarget) -> SQLFragment) -> SQLFragment

    // MARK: System tables

    /// The migrations only this dialect has: the functions its SQL calls in the database (SQLite's are registered by
    /// its adapter on each connection instead) and the change-log table of instances sharing the database;
    /// ``SystemSchema/migrations(_:)`` orders them by name with the others.
    var dialectMigrations: [SystemSchema.Migration] { get }

    /// `text` with its ASCII letters lower-cased and no others, whatever the database's collation.
    func asciiLowercased(_ text: SQLFragment) -> SQLFragment

    /// A text parameter, typed where the database would not know its type from where it stands.
    func textParameter(_ text: String) -> SQLFragment

    /// The text of the JSON array in `column` (a text column) with `number` appended, in one expression.
    func appendingNumber(_ number: SQLFragment, toArrayText column: String) -> SQLFragment

    /// A query with one row when the index `name` exists.
    func indexExists(_ name: String) -> SQLFragment

    /// `SELECT` of one row (user id, platform, account id) per third-party account in the `authData` of the users in
    /// `users` (a quoted table, aliased `"u"`, with the accounts as `"p"`): the account id is the entry's `uid`, else
    /// `openid`, else `id`, a string or an integral number as text; entries without one are skipped.
    func linkedAccounts(ofUsersIn users: String) -> String

    /// The statement that holds, until the transaction ends, the lock of migrating the system tables; `nil` where
    /// one process at a time uses the database (and its one writer is the lock).
    var migrationLock: SQLFragment? { get }

    /// The statement that holds, until the transaction ends, the lock named `key` (of creating a class's table, of
    /// adding a push with a request id); `nil` where one process at a time uses the database (and its one writer is
    /// the lock).
    func transactionLock(_ key: String) -> SQLFragment?

    /// The clause that makes a `SELECT` lock the rows it reads until the transaction ends (`FOR UPDATE`); `nil` where
    /// the one writer excludes every other (SQLite). Where there is one, an update reads the object's prior state in
    /// its own statement (``ObjectStatements/update(id:document:updatedAt:acl:condition:returningPrior:)``).
    var rowLockClause: String? { get }

    /// How to read the plan the database chooses for `statement`, preferring indexes where it can: `setup` runs first
    /// in the same transaction, and each row of `explain` holds a line of the plan in column `detailColumn`.
    func queryPlan(of statement: SQLFragment) -> (setup: [SQLFragment], explain: SQLFragment, detailColumn: Int)
}

/// The JSON kinds a value can have.
package enum JSONKind: Sendable, Hashable {
    case string, number, boolean, null, object, array, trueValue, falseValue
}

/// Comparison operators on scalars.
package enum ScalarOperator: String, Sendable, Hashable {
    case equal = "="
    case lessThan = "<"
    case lessThanOrEqual = "<="
    case greaterThan = ">"
    case greaterThanOrEqual = ">="
}

/// Integer bit operators.
package enum BitOperator: String, Sendable, Hashable {
    case and = "&"
    case or = "|"
    case xor = "#"
}

/// A constant on the right of a comparison.
package enum ScalarOperand: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    /// A JSON object or array, compared as a whole.
    case json(JSON)
}

/// Something that holds a JSON value: a path in a document column, or one element of an array.
package struct JSONTarget: Sendable, Hashable {
    package enum Source: Sendable, Hashable {
        /// The value at `path` in the document stored in `column`.
        case document(column: String, path: FieldPath)
        /// The element row of an array being iterated under `alias`.
        case element(alias: String)
        /// A member of another target.
        indirect case member(JSONTarget, String)
    }

    package let source: Source

    package init(_ source: Source) {
        self.source = source
    }
}

extension SQLDialect {
    /// `"name"` with embedded quotes doubled.
    package func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingAll("\"", with: "\"\"") + "\""
    }

    /// `'text'` with embedded quotes doubled; for trusted, validated text such as JSON paths.
    package func literal(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "''") + "'"
    }

    /// Renders `fragment` for a database: ``render(_:)``, refused when it binds more parameters than the
    /// database accepts (a `where` of thousands of conditions), which the database would answer with an error.
    /// - Throws: ``APIError`` ``APIError/Reason/queryTooComplex``.
    package func renderForDatabase(_ fragment: SQLFragment) throws(APIError) -> (sql: String, bindings: [SQLValue]) {
        let rendered = render(fragment)
        guard rendered.bindings.count <= maximumParameters else {
            throw QueryLimits.exceeded("the number of values the query binds", rendered.bindings.count, limit: maximumParameters)
        }
        return rendered
    }

    /// Renders `fragment` to text with this dialect's placeholders, and its bindings in order.
    package func render(_ fragment: SQLFragment) -> (sql: String, bindings: [SQLValue]) {
        var text = ""
        var bindings: [SQLValue] = []
        for part in fragment.parts {
            switch part {
            case .text(let piece): text += piece
            case .value(let value):
                bindings.append(value)
                text += placeholder(bindings.count)
            }
        }
        return (text, bindings)
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        // Identifiers and paths rarely hold the character: then there is nothing to walk character by character.
        if let byte = target.asciiValue, !utf8.contains(byte) { return self }
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
