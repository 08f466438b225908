package import CirrusModel

/// Compiles the field operations of an update into one expression computing the new document from the
/// stored one, so that increments, bit and array operations run inside the UPDATE statement and
/// concurrent writers never lose each other's changes.
package struct UpdateCompiler {
    package let dialect: any SQLDialect
    private let conditions: ConditionCompiler

    package init(dialect: any SQLDialect, schema: ClassSchema?, aliases: AliasCounter = AliasCounter()) {
        self.dialect = dialect
        conditions = ConditionCompiler(dialect: dialect, schema: schema, aliases: aliases)
    }

    private var column: String { ConditionCompiler.documentColumn }

    /// The new document after `operations`, or `nil` when none of them changes the document.
    /// Operations must not overlap (``ObjectUpdate`` guarantees it), so each reads the stored value.
    package func document(after operations: [(path: FieldPath, operation: FieldOperation)]) -> SQLFragment? {
        var document = SQLFragment(dialect.quote(column))
        var changed = false
        for (path, operation) in operations where operation.touchesDocument {
            document = apply(operation, at: path, to: document)
            changed = true
        }
        return changed ? document : nil
    }

    private func apply(_ operation: FieldOperation, at path: FieldPath, to document: SQLFragment) -> SQLFragment {
        let current = dialect.target(column: column, path: path)
        let newValue: SQLFragment
        switch operation {
        case .delete: return dialect.removing(document, path: path)
        case .relation: return document
        case .set(let value): newValue = dialect.jsonLiteral(value.wire)
        case .increment(let amount): newValue = dialect.incremented(current, by: amount)
        case .bitAnd(let operand): newValue = dialect.bitwise(current, .and, operand)
        case .bitOr(let operand): newValue = dialect.bitwise(current, .or, operand)
        case .bitXor(let operand): newValue = dialect.bitwise(current, .xor, operand)
        case .add(let elements): newValue = dialect.appending(current, elements)
        case .addUnique(let elements):
            newValue = dialect.appendingUnique(current, Self.distinct(elements), alias: conditions.nextAlias()) { element, value in
                conditions.matches(element, .equal, value)
            }
        case .remove(let elements):
            newValue = dialect.removing(from: current, alias: conditions.nextAlias()) { element in
                elements.isEmpty ? "FALSE" : elements.map { conditions.matches(element, .equal, $0) }.combined("OR")
            }
        }
        return dialect.setting(document, column: column, path: path, to: newValue)
    }

    /// The elements without repeats, first occurrence kept.
    static func distinct(_ elements: [Value]) -> [Value] {
        var seen: Set<Value> = []
        return elements.filter { seen.insert($0.equivalenceKey).inserted }
    }
}
