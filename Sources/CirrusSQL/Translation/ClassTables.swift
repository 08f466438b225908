public import CirrusModel

/// The tables (and recorded schemas) of the classes that sub-queries name, so that ``ConditionCompiler`` can
/// reach another class's table for `$inQuery`, `$notInQuery`, `$select` and `$dontSelect`.
///
/// Stores fill it from the class registry before compiling (see ``Condition/referencedClassNames``); a class
/// that is not listed does not exist, so a sub-query on it finds nothing.
public struct ClassTables: Sendable, Hashable {
    /// One class: its table and, when known, its schema.
    public struct Entry: Sendable, Hashable {
        public let table: String
        public let schema: ClassSchema?

        public init(table: String, schema: ClassSchema?) {
            self.table = table
            self.schema = schema
        }
    }

    public private(set) var entries: [String: Entry]

    public init(_ entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// The entry of `className`, `nil` when the class does not exist.
    public func entry(for className: String) -> Entry? {
        entries[className]
    }

    public mutating func record(_ className: String, table: String, schema: ClassSchema?) {
        entries[className] = Entry(table: table, schema: schema)
    }
}
