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
        // Accounts and sessions.
        /// Sign-up without a username, or with an empty one.
        case usernameMissing
        /// Sign-up without a password, or with an empty one.
        case passwordMissing
        case usernameTaken
        case emailTaken
        case mobilePhoneNumberTaken
        /// A log-in whose password does not match.
        case loginMismatch
        /// No user matches the log-in, session or lookup.
        case userNotFound
        /// An unfollow (or a follow's update) of a user the user does not follow (LeanCloud 221).
        case friendshipNotFound
        /// The request's session token is unknown, revoked or expired.
        case invalidSessionToken
        /// A user object changed or deleted without that user's session.
        case sessionRequired
        /// Too many failed log-ins: the account is locked for a while.
        case accountLocked
        /// A password change whose old password is wrong.
        case oldPasswordMismatch
        case invalidEmail
        case invalidMobilePhoneNumber
        /// A wrong, expired or used verification code.
        case invalidCode
        /// Messages to one number or address are sent too often.
        case tooManyMessages
        /// The SMS or e-mail transport failed.
        case messageSendFailed
        case mobilePhoneNumberMissing
        /// No user has this phone number.
        case mobilePhoneNumberNotFound
        case emailMissing
        /// No user has this e-mail address.
        case emailNotFound
        case emailNotVerified
        case mobilePhoneNumberNotVerified
        /// Third-party log-in data without a user id, or malformed.
        case invalidAuthData
        /// The third-party account is linked to another user.
        case authDataTaken
        /// The platform's provider refused the token, or it names another account (LeanCloud and Parse 251).
        case invalidLinkedSession
        /// A platform the server neither verifies nor trusts (Parse's 252 "unsupported service").
        case unsupportedAuthPlatform
        /// The platform's provider could not be reached in time to verify the token.
        case authProviderUnavailable
        /// A file name that is empty, too long or holds forbidden characters.
        case invalidFileName
        /// A file larger than the configured maximum.
        case fileTooLarge
        /// A client sent more requests of a kind than its rate limit allows (uploads).
        case rateLimited
        // Schemas.
        /// Creating a class that exists.
        case classExists
        /// Dropping a class that still has objects.
        case classNotEmpty
        // Permissions.
        /// The object's ACL does not let the caller write it.
        case writeDenied
        /// The class permissions do not allow the operation for the caller.
        case classPermissionDenied
        /// A field that clients may not change.
        case readOnlyField
        /// A create without a value for a required field, or an update removing it.
        case requiredFieldMissing
        case invalidRoleName
        /// A value that may be set only once (a role's name; an installation's ids and device type).
        case immutableField
        /// A push request that cannot be sent as asked (Parse's 115, `PUSH_MISCONFIGURED`).
        case invalidPush
        /// A field the operation needs is missing (an installation without `deviceToken` or `installationId`,
        /// Parse's 135).
        case missingRequiredField
        /// A role saved without an ACL.
        case roleACLRequired
        // The transport.
        /// The request's work did not finish within its deadline (LeanCloud's and Parse's 124).
        case timeout
        /// The client sent its request head or body too slowly (408).
        case requestTimeout
        /// The request line (its URL) is longer than the server accepts (414).
        case uriTooLong
        /// The request's header section is larger than the server accepts (431).
        case headersTooLarge
        /// The server holds as many connections as it may (503).
        case serverBusy
        // Limits.
        /// A query beyond a limit of ``QueryLimits`` (too many conditions, values, keys, included objects, too deep,
        /// or a regular expression too long or too slow).
        case queryTooComplex
        /// A number operation whose result no JSON number can hold (an `Increment` beyond the largest double).
        case numberOutOfRange
        // Cloud code.
        /// A cloud function the engine does not define, or no engine at all (LeanCloud 404 code 1, Parse 141).
        case cloudFunctionNotFound
        /// A cloud function or hook that failed: the engine's own code and status when it gave them (``engineFailure``),
        /// else LeanCloud's and Parse's 141.
        case cloudCodeFailed
        /// A before-hook that refused a write, or failed (LeanCloud's and Parse's 142 "Cloud Code validation failed").
        case hookRefused
        /// The cloud-code engine did not answer in time (LeanCloud 503 code 124).
        case engineTimeout
        /// A Parse webhook registration that is malformed, taken or missing (Parse's 143).
        case webhookInvalid
    }

    public var reason: Reason
    public var message: String
    /// The HTTP status and code a cloud function answered with, which reach its caller unchanged in every dialect.
    public var engineFailure: EngineFailure?

    public init(_ reason: Reason, _ message: String, engineFailure: EngineFailure? = nil) {
        self.reason = reason
        self.message = message
        self.engineFailure = engineFailure
    }

    /// The status and code of a cloud function's own error reply (`{"code": 123, "error": "…"}` with its status).
    public struct EngineFailure: Sendable, Equatable {
        public var status: Int
        public var code: Int

        public init(status: Int, code: Int) {
            self.status = status
            self.code = code
        }
    }

    /// A statement the database cancelled at the statement timeout (`--statement-timeout`): the request's work did
    /// not finish in time, as when its deadline passes.
    public static let statementTimeout = APIError(.timeout, "The database did not finish the request's statement within the statement timeout.")

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
