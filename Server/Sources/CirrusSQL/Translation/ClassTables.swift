package import CirrusModel

/// The tables (and recorded schemas) of the classes that sub-queries name, so that ``ConditionCompiler`` can
/// reach another class's table for `$inQuery`, `$notInQuery`, `$select` and `$dontSelect`.
///
/// Stores fill it from the class registry before compiling (see ``Condition/referencedClassNames``); a class
/// that is not listed does not exist, so a sub-query on it finds nothing.
package struct ClassTables: Sendable, Hashable {
    /// One class: its table and, when known, its schema.
    package struct Entry: Sendable, Hashable {
        package let table: String
        package let schema: ClassSchema?

        package init(table: String, schema: ClassSchema?) {
            self.table = table
            self.schema = schema
        }
    }

    package private(set) var entries: [String: Entry]

    package init(_ entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// The entry of `className`, `nil` when the class does not exist.
    package func entry(for className: String) -> Entry? {
        entries[className]
    }

    package mutating func record(_ className: String, table: String, schema: ClassSchema?) {
        entries[className] = Entry(table: table, schema: schema)
    }
}
