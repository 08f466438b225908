/// The two dialects of the statement language: LeanCloud's CQL and Bmob's BQL, which adds statistics
/// (`group by`, `having`, `groupcount`, `sum`, `average`, `max`, `min`).
public enum CloudQueryLanguage: String, Sendable, Hashable, CaseIterable {
    case cql
    case bql

    /// `CQL` or `BQL`, as error messages name the language.
    public var name: String { rawValue.uppercased() }

    /// Whether statistics are part of the language.
    public var hasStatistics: Bool { self == .bql }
}
