import Foundation

/// An error of the SDK: the server's `code` and message, or one of the SDK's own codes.
///
/// Server errors keep the code LeanCloud documents (`101` object not found, `202` username taken, `305` a
/// conditional save that matched nothing, …) and the server's `error` text as ``reason``.
public struct LCError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The error code: the server's, or an ``InternalErrorCode`` raw value.
    public let code: Int
    /// The server's message, or a description of what failed.
    public let reason: String?
    /// The error this one wraps (a URLSession error, for instance).
    public let underlyingError: (any Error)?

    /// Codes of errors found by the SDK itself.
    public enum InternalErrorCode: Int, Sendable {
        case notFound = 9973
        case invalidType = 9974
        case malformedData = 9975
        case inconsistency = 9976
        case underlyingError = 9977
    }

    /// Codes of the server that the SDK checks for itself.
    public enum ServerErrorCode: Int, Sendable {
        case objectNotFound = 101
        /// A session token the server does not know (`GET /users/me`).
        case userNotFound = 211
        case sessionConflict = 4111
        case sessionTokenExpired = 4112
    }

    public init(code: Int, reason: String? = nil, underlyingError: (any Error)? = nil) {
        self.code = code
        self.reason = reason
        self.underlyingError = underlyingError
    }

    public init(code: InternalErrorCode, reason: String? = nil, underlyingError: (any Error)? = nil) {
        self.init(code: code.rawValue, reason: reason, underlyingError: underlyingError)
    }

    public init(code: ServerErrorCode, reason: String? = nil) {
        self.init(code: code.rawValue, reason: reason)
    }

    /// `error` itself when it is an `LCError`; a URL error keeps its code; anything else is wrapped as an
    /// underlying error.
    public init(error: any Error) {
        if let error = error as? LCError {
            self = error
        } else if let error = error as? URLError {
            self.init(code: error.errorCode, reason: error.localizedDescription, underlyingError: error)
        } else if error is CancellationError {
            self.init(code: URLError.cancelled.rawValue, reason: "The request was cancelled.", underlyingError: error)
        } else {
            self.init(code: .underlyingError, reason: String(describing: error), underlyingError: error)
        }
    }

    public var description: String {
        "LCError(code: \(code), reason: \(reason.map { "\"\($0)\"" } ?? "nil"))"
    }

    public var debugDescription: String { description }
}

extension LCError {
    /// The object a fetch or `get` asked for does not exist (or may not be read).
    static func objectNotFound(_ what: String = "Object not found.") -> LCError {
        LCError(code: .objectNotFound, reason: what)
    }

    /// An operation that cannot be combined with what is pending, or a call made in the wrong state.
    static func inconsistency(_ reason: String) -> LCError {
        LCError(code: .inconsistency, reason: reason)
    }

    /// A reply that is not what the protocol promises.
    static func malformed(_ reason: String) -> LCError {
        LCError(code: .malformedData, reason: reason)
    }
}
