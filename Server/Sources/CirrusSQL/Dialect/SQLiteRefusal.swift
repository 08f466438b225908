package import CirrusModel

/// A failure the client caused, raised from inside a SQLite statement (a regular expression out of its budget, an
/// `Increment` beyond the largest double), carried as the statement's error message and read back as the
/// ``APIError`` it was, so that it reaches the client as a 4xx rather than a database failure.
package enum SQLiteRefusal {
    /// `cirrus_refuse(reason, message)`: fails the statement with ``APIError`` `reason` and `message`. The SQLite
    /// adapter registers it; the SQL calls it in a `CASE` branch that only runs when the refusal applies.
    package static let function = "cirrus_refuse"

    private static let prefix = "cirrus refusal: "

    /// The statement error message that stands for `error`.
    package static func message(for error: APIError) -> String {
        prefix + error.reason.rawValue + ": " + error.message
    }

    /// SQLite's messages for a statement too deep or too large to compile, which only queries beyond the default
    /// ``QueryLimits`` reach.
    static let tooComplexMessages = ["parser stack overflow", "Expression tree is too large", "too many SQL variables", "too many terms in"]

    /// The error a statement error message stands for, or `nil` when it is another failure.
    package static func apiError(fromMessage message: String?) -> APIError? {
        guard let message else { return nil }
        if tooComplexMessages.contains(where: message.contains) {
            return APIError(.queryTooComplex, "Query too complex: the statement is too deep or too large for the database.")
        }
        guard message.hasPrefix(prefix) else { return nil }
        let rest = message.dropFirst(prefix.count)
        guard let colon = rest.firstIndex(of: ":"), let reason = APIError.Reason(rawValue: String(rest[..<colon])) else { return nil }
        return APIError(reason, String(rest[rest.index(after: colon)...].dropFirst()))
    }

    /// A call of ``function`` that fails the statement with `error`, whose text is the server's own (literals, not
    /// parameters, so that the statement binds nothing more).
    static func call(_ error: APIError, in dialect: SQLiteDialect) -> SQLFragment {
        let text = function + "(" + dialect.literal(error.reason.rawValue) + ", " + dialect.literal(error.message) + ")"
        return SQLFragment(text)
    }
}
