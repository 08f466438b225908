package import CirrusModel

/// A value written in a statement: a literal, a `?` placeholder, an array, a REST JSON object or a built-in
/// function call. It becomes REST JSON once the placeholders are bound.
package indirect enum Expression: Sendable, Hashable {
    /// A number, string, `true`, `false` or `null`.
    case literal(JSON, SourcePosition)
    /// The `index`-th `?` of the statement (0-based, in textual order).
    case placeholder(index: Int, SourcePosition)
    /// `[a, b]`: an array, or a `[longitude, latitude]` point in geo predicates.
    case array([Expression], SourcePosition)
    /// `{className: 'Post', objectId: '…', __type: 'Pointer'}`: raw REST JSON, keys bare or quoted.
    case object([Member], SourcePosition)
    /// `date('…')`, `pointer('C', 'id')`, `op('Increment', {'amount': 1})`, …
    case call(Function, [Expression], SourcePosition)

    /// One `key: value` of an object literal.
    package struct Member: Sendable, Hashable {
        package var key: String
        package var value: Expression

        package init(key: String, value: Expression) {
            self.key = key
            self.value = value
        }
    }

    /// The built-in functions.
    package enum Function: String, Sendable, Hashable, CaseIterable {
        /// `date('2011-08-20T02:06:57.931Z')` (Bmob: `date('2015-05-20 00:00:00')`, Beijing time).
        case date
        /// `pointer('Post', '51e3a359e4b015ead4d95ddc')`.
        case pointer
        /// `geopoint(longitude, latitude)`.
        case geopoint
        /// `file('objectId')`, or Bmob's `file('name', 'url')`.
        case file
        /// `base64('aGVsbG8=')`: Bytes.
        case base64
        /// `current_timestamp()`: the server's current time as a Date.
        case currentTimestamp = "current_timestamp"
        /// `op('Increment', {'amount': 1})`: an atomic operation, in insert values and update assignments only.
        case op
    }

    /// Where the expression starts.
    package var position: SourcePosition {
        switch self {
        case .literal(_, let position), .placeholder(_, let position), .array(_, let position), .object(_, let position),
            .call(_, _, let position):
            position
        }
    }
}
