package import CirrusModel

/// A column as written: dotted segments and where it starts. Segments are checked when compiled, because
/// `having` may name result keys such as `_sumScore` that are not field names.
package struct Column: Sendable, Hashable, CustomStringConvertible {
    package var segments: [String]
    package var position: SourcePosition

    package init(_ segments: [String], at position: SourcePosition) {
        self.segments = segments
        self.position = position
    }

    /// The dotted form.
    package var description: String { segments.joined(separator: ".") }
}

/// A `where` (or `having`) condition as written.
package indirect enum Predicate: Sendable, Hashable {
    case and([Predicate])
    case or([Predicate])
    /// `not p`: matches when `p` does not.
    case not(Predicate)
    /// `col = v`, `col != v`, `col <> v`, `col < v`, …
    case compare(Column, Condition.Comparison, Expression)
    /// `col = (select key from C …)` and `col != (select …)`.
    case compareSelect(Column, SelectStatement, negated: Bool)
    /// `col [not] like 'pattern%'`.
    case like(Column, Expression, negated: Bool)
    /// `col [not] regexp 'pattern'`.
    case regexp(Column, Expression, negated: Bool)
    /// `col [not] in (v, …)`.
    case inList(Column, [Expression], negated: Bool)
    /// `col [not] in (select …)`.
    case inSelect(Column, SelectStatement, negated: Bool)
    /// `col is [not] exists`.
    case exists(Column, Bool)
    /// `col all (v, …)`: the array holds every value.
    case all(Column, [Expression])
    /// `size(col) = n`.
    case size(Column, Expression)
    /// `related key to pointer('C', 'id')`.
    case related(key: Column, object: Expression)
    /// `col near point [min d unit] [max d unit]`.
    case near(Column, Expression, minimum: Distance?, maximum: Distance?)
    /// `col within southwest and northeast`.
    case within(Column, southwest: Expression, northeast: Expression)
}

/// A distance of `near`: a number (or placeholder) and its unit, radians when none is written.
package struct Distance: Sendable, Hashable {
    package enum Unit: String, Sendable, Hashable, CaseIterable {
        case radians, kilometers, miles
    }

    package var value: Expression
    package var unit: Unit

    package init(value: Expression, unit: Unit) {
        self.value = value
        self.unit = unit
    }
}
