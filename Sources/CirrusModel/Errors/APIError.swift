/// A failure a client caused or should hear about, in words that do not depend on the wire dialect.
///
/// The HTTP layer maps each ``Reason`` to the code, HTTP status and message wording of the caller's dialect
/// (LeanCloud, Parse or Bmob) in one place. Everything below HTTP throws these reasons and never a wire code.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, independent of any dialect.
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        case internalError
        case invalidParameter
        case invalidJSON
        case invalidClassName
        case invalidKeyName
        case invalidNestedKey
        case invalidPointer
        case invalidGeoPoint
        case invalidACL
        case invalidQuery
        /// A CQL or BQL statement that does not parse or compile (LeanCloud 300, Bmob 601).
        case invalidStatement
        case incorrectType
        case objectTooLarge
        case missingObjectId
        case classNotFound
        case objectNotFound
        case conditionNotMatched
        case duplicateValue
        case unauthorized
        case forbidden
        case masterKeyRequired
        case tooManyRequestsInBatch
        case notFound
        case methodNotAllowed
        case requestTooLarge
    }

    public var reason: Reason
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason): \(message)" }
}

extension APIError {
    static func invalidKey(_ key: String) -> APIError {
        APIError(.invalidKeyName, "Invalid key name. Keys are case-sensitive and must start with a letter, "
            + "and a-zA-Z0-9_ are the only valid characters. The column is: '\(key)'.")
    }

    static func invalidNestedKey(_ key: String) -> APIError {
        APIError(.invalidNestedKey, "Keys in nested objects may not contain '$' or '.': '\(key)'.")
    }
}
