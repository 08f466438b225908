/// SQL text with its bound values kept apart from the text until a dialect renders it.
///
/// Build fragments with string interpolation: `"\(column) = \(bind: .text(id))"`. Interpolating a
/// fragment splices it; `bind:` adds a parameter; `raw:` adds trusted text such as a quoted identifier.
package struct SQLFragment: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    package enum Part: Sendable, Hashable {
        case text(String)
        case value(SQLValue)
    }

    package private(set) var parts: [Part]

    package init(_ text: String) {
        parts = text.isEmpty ? [] : [.text(text)]
    }

    package init(parts: [Part]) {
        self.parts = parts
    }

    package init(stringLiteral value: String) {
        self.init(value)
    }

    package init(stringInterpolation: Interpolation) {
        parts = stringInterpolation.parts
    }

    /// A single bound parameter.
    package static func bind(_ value: SQLValue) -> SQLFragment {
        SQLFragment(parts: [.value(value)])
    }

    package mutating func append(_ other: SQLFragment) {
        parts += other.parts
    }

    package static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(parts: lhs.parts + rhs.parts)
    }

    /// The bound values in order.
    package var bindings: [SQLValue] {
        parts.compactMap { part in
            if case .value(let value) = part { return value }
            return nil
        }
    }

    /// The text with `?` for every parameter; for tests and logs.
    package var description: String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .value: "?"
            }
        }.joined()
    }

    package struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        package init(literalCapacity: Int, interpolationCount: Int) {}

        package mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.text(literal)) }
        }

        package mutating func appendInterpolation(_ fragment: SQLFragment) {
            parts += fragment.parts
        }

        package mutating func appendInterpolation(bind value: SQLValue) {
            parts.append(.value(value))
        }

        package mutating func appendInterpolation(raw text: String) {
            parts.append(.text(text))
        }
    }
}

extension Array where Element == SQLFragment {
    /// The fragments joined by `separator`.
    package func joined(separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (index, fragment) in enumerated() {
            if index > 0 { result.append(SQLFragment(separator)) }
            result.append(fragment)
        }
        return result
    }
}
