package import CirrusModel

/// The one place where an error reason becomes an HTTP status and a dialect's error code.
package struct WireError: Sendable, Equatable {
    package var status: Int
    /// `nil` for replies without a code (`{"error":"unauthorized"}` in Parse and Bmob).
    package var code: Int?
    package var message: String

    /// The JSON body: `{"code":N,"error":"…"}`.
    package var body: JSON {
        var members: [String: JSON] = ["error": .string(message)]
        if let code { members["code"] = .int(Int64(code)) }
        return .object(members)
    }
}

extension Dialect {
    /// The status, code and message for an ``APIError`` in this dialect.
    package func wireError(for error: APIError) -> WireError {
        if let failure = error.engineFailure {
            // A cloud function's own error reaches its caller as the function gave it, in every dialect.
            return WireError(status: failure.status, code: failure.code, message: error.message)
        }
        let (status, code) = statusAndCode(error.reason)
        if error.reason == .unauthorized, self != .leancloud {
            return WireError(status: 401, code: nil, message: "unauthorized")
        }
        if error.reason == .writeDenied, self == .parse {
            // parse-server does not tell an object that may not be written from a missing one.
            return WireError(status: status, code: code, message: "Object not found.")
        }
        return WireError(status: status, code: code, message: error.message)
    }

    private func statusAndCode(_ reason: APIError.Reason) -> (Int, Int) {
        switch self {
        case .leancloud: Self.leancloudCodes(reason)
        case .parse: Self.parseCodes(reason)
        case .bmob: Self.bmobCodes(reason)
        }
    }

    /// LeanCloud: codes from its error-code reference and the recorded traffic.
    private static func leancloudCodes(_ reason: APIError.Reason) -> (Int, Int) {
        switch reason {
        case .internalError: (500, 1)
        case .invalidParameter, .invalidQuery, .tooManyRequestsInBatch: (400, 1)
        case .invalidJSON: (400, 107)
        case .invalidStatement: (400, 300)
        case .invalidClassName: (400, 103)
        case .invalidKeyName: (400, 105)
        case .invalidNestedKey: (400, 121)
        case .invalidPointer: (400, 106)
        case .invalidGeoPoint: (400, 302)
        case .invalidACL: (400, 123)
        case .incorrectType: (400, 111)
        case .objectTooLarge: (400, 116)
        case .missingObjectId: (400, 104)
        case .classNotFound: (404, 101)
        case .objectNotFound: (404, 1)
        case .conditionNotMatched: (400, 305)
        case .duplicateValue: (400, 137)
        case .unauthorized: (401, 401)
        case .forbidden: (403, 403)
        // Recording R#34: `400 {"code":1,"error":"The request must be signed by master key."}`.
        case .masterKeyRequired: (400, 1)
        case .notFound: (404, 1)
        case .methodNotAllowed: (405, 1)
        case .requestTooLarge: (413, 413)
        case .usernameMissing: (400, 217)
        case .passwordMissing: (400, 218)
        case .usernameTaken: (400, 202)
        case .emailTaken: (400, 203)
        case .mobilePhoneNumberTaken: (400, 214)
        case .loginMismatch, .oldPasswordMismatch: (400, 210)
        // Recording R#112: `/users/me` with a bad token answers `400 {"code":211,"error":"Could not find user."}`.
        case .userNotFound: (400, 211)
        case .friendshipNotFound: (400, 221)
        // The REST guide: a stale token gets 403 on APIs that need a user.
        case .invalidSessionToken: (403, 403)
        case .sessionRequired: (400, 206)
        case .accountLocked: (400, 219)
        case .invalidEmail: (400, 125)
        case .invalidMobilePhoneNumber: (400, 127)
        case .writeDenied, .classPermissionDenied: (403, 403)
        case .readOnlyField: (400, 117)
        case .requiredFieldMissing: (400, 113)
        case .invalidRoleName, .immutableField: (400, 139)
        // Recording R#95: `400 {"code":1,"error":"Role ACL is required."}`.
        case .roleACLRequired: (400, 1)
        case .invalidCode: (400, 603)
        case .tooManyMessages: (400, 601)
        case .messageSendFailed: (400, 602)
        case .mobilePhoneNumberMissing: (400, 212)
        case .mobilePhoneNumberNotFound: (400, 213)
        case .emailMissing: (400, 204)
        case .emailNotFound: (400, 205)
        case .emailNotVerified: (400, 216)
        case .mobilePhoneNumberNotVerified: (400, 215)
        case .classExists: (400, 103)
        case .classNotEmpty: (400, 1)
        case .invalidAuthData: (400, 250)
        case .authDataTaken: (400, 208)
        case .invalidLinkedSession: (400, 251)
        case .unsupportedAuthPlatform: (400, 252)
        case .authProviderUnavailable: (502, 1)
        case .invalidFileName: (400, 122)
        case .fileTooLarge: (413, 413)
        // The REST guide's 430: uploads beyond the per-client rate.
        case .rateLimited: (429, 430)
        // The error-code reference: 124 "The request timed out on the server."; the transport's own refusals carry
        // their HTTP status as code, as 401, 403 and 413 do.
        case .timeout: (503, 124)
        case .requestTimeout: (408, 408)
        case .uriTooLong: (414, 414)
        case .headersTooLarge: (431, 431)
        case .serverBusy: (503, 503)
        // LeanCloud's code 1 (bad parameters): a query beyond a limit, a number no JSON number can hold.
        case .queryTooComplex, .numberOutOfRange: (400, 1)
        // LeanEngine: 141 a function's failure, 142 a hook's refusal (R#120), 124 a timeout (503, as its SDKs).
        case .cloudFunctionNotFound: (404, 1)
        case .cloudCodeFailed: (400, 141)
        case .hookRefused: (400, 142)
        case .engineTimeout: (503, 124)
        case .webhookInvalid: (400, 143)
        case .missingRequiredField: (400, 1)
        case .invalidPush: (400, 1)
        }
    }

    /// Parse: `Parse.Error` codes as parse-server sends them.
    private static func parseCodes(_ reason: APIError.Reason) -> (Int, Int) {
        switch reason {
        case .internalError: (500, 1)
        case .invalidParameter, .invalidJSON, .invalidGeoPoint, .tooManyRequestsInBatch: (400, 107)
        case .invalidQuery, .invalidStatement: (400, 102)
        case .invalidClassName: (400, 103)
        case .invalidKeyName: (400, 105)
        case .invalidNestedKey: (400, 121)
        case .invalidPointer: (400, 106)
        case .invalidACL: (400, 123)
        case .incorrectType: (400, 111)
        case .objectTooLarge: (400, 116)
        case .missingObjectId: (400, 104)
        case .classNotFound, .objectNotFound, .friendshipNotFound: (404, 101)
        case .conditionNotMatched: (400, 305)
        case .duplicateValue: (400, 137)
        case .unauthorized: (401, 401)
        case .forbidden, .masterKeyRequired: (403, 119)
        case .notFound: (404, 101)
        case .methodNotAllowed: (405, 101)
        case .requestTooLarge: (413, 130)
        case .usernameMissing: (400, 200)
        case .passwordMissing: (400, 201)
        case .usernameTaken: (400, 202)
        case .emailTaken: (400, 203)
        case .mobilePhoneNumberTaken: (400, 137)
        // parse-server answers a wrong password, an unknown user and a locked account alike: OBJECT_NOT_FOUND (101),
        // which its error middleware sends with 404.
        case .loginMismatch, .userNotFound, .oldPasswordMismatch, .accountLocked: (404, 101)
        case .invalidSessionToken: (400, 209)
        case .sessionRequired: (400, 206)
        case .invalidEmail: (400, 125)
        case .invalidMobilePhoneNumber: (400, 142)
        // parse-server hides objects a client may not write: 101 "Object not found.".
        case .writeDenied: (404, 101)
        case .classPermissionDenied: (403, 119)
        case .readOnlyField: (400, 136)
        // parse-server: a required field's absence is VALIDATION_ERROR, "<field> is required".
        case .requiredFieldMissing: (400, 142)
        case .invalidRoleName: (400, 139)
        case .immutableField: (400, 136)
        case .roleACLRequired: (400, 123)
        case .invalidCode, .tooManyMessages, .messageSendFailed, .mobilePhoneNumberMissing, .mobilePhoneNumberNotFound,
            .mobilePhoneNumberNotVerified: (400, 1)
        case .emailMissing: (400, 204)
        case .emailNotFound, .emailNotVerified: (400, 205)
        case .classExists: (400, 103)
        // parse-server: 255 "Class X is not empty, contains N objects, cannot drop schema."
        case .classNotEmpty: (400, 255)
        case .invalidAuthData: (400, 250)
        case .authDataTaken: (400, 208)
        // Parse.Error.INVALID_LINKED_SESSION and UNSUPPORTED_SERVICE.
        case .invalidLinkedSession: (400, 251)
        case .unsupportedAuthPlatform: (400, 252)
        case .authProviderUnavailable: (502, 1)
        case .invalidFileName: (400, 122)
        // parse-server: 130 FILE_SAVE_ERROR "File size exceeds maximum allowed"; 155 REQUEST_LIMIT_EXCEEDED.
        case .fileTooLarge: (413, 130)
        case .rateLimited: (429, 155)
        // Parse.Error.TIMEOUT (124); requests the transport refuses are INVALID_JSON-style bad requests (107), and a
        // full server is SERVER_ERROR-like (1).
        case .timeout, .requestTimeout: (Self.transportStatus(reason), 124)
        case .uriTooLong, .headersTooLarge: (Self.transportStatus(reason), 107)
        case .serverBusy: (503, 1)
        // parse-server: INVALID_QUERY (102) for a refused query; INVALID_JSON (107) for a value it cannot hold.
        case .queryTooComplex: (400, 102)
        case .numberOutOfRange: (400, 107)
        // parse-server: SCRIPT_FAILED (141) for a missing or failed function, VALIDATION_ERROR (142) for a trigger's
        // refusal, TIMEOUT (124).
        case .cloudFunctionNotFound, .cloudCodeFailed: (400, 141)
        case .hookRefused: (400, 142)
        case .engineTimeout: (503, 124)
        case .webhookInvalid: (400, 143)
        case .missingRequiredField: (400, 135)
        case .invalidPush: (400, 115)
        }
    }

    /// Bmob: its REST error-code table; every coded error is HTTP 400.
    private static func bmobCodes(_ reason: APIError.Reason) -> (Int, Int) {
        switch reason {
        case .internalError: (500, 1)
        case .invalidParameter: (400, 118)
        case .invalidJSON, .invalidACL: (400, 107)
        case .invalidQuery: (400, 102)
        case .invalidStatement: (400, 601)
        case .invalidClassName, .missingObjectId: (400, 103)
        case .invalidKeyName, .invalidNestedKey: (400, 105)
        case .invalidPointer: (400, 106)
        case .invalidGeoPoint: (400, 117)
        case .incorrectType: (400, 111)
        case .objectTooLarge: (400, 107)
        case .classNotFound, .objectNotFound, .friendshipNotFound: (400, 101)
        case .conditionNotMatched: (400, 305)
        case .duplicateValue: (400, 401)
        case .unauthorized: (401, 401)
        case .forbidden, .masterKeyRequired: (400, 122)
        case .tooManyRequestsInBatch: (400, 114)
        case .notFound: (404, 101)
        case .methodNotAllowed: (405, 101)
        case .requestTooLarge: (413, 107)
        case .usernameMissing, .passwordMissing: (400, 108)
        case .usernameTaken: (400, 202)
        case .emailTaken: (400, 203)
        case .mobilePhoneNumberTaken: (400, 209)
        case .loginMismatch, .userNotFound: (400, 101)
        case .oldPasswordMismatch: (400, 210)
        case .invalidSessionToken: (400, 211)
        case .sessionRequired: (400, 206)
        case .accountLocked: (400, 1)
        case .invalidEmail, .invalidMobilePhoneNumber: (400, 107)
        case .writeDenied, .classPermissionDenied: (400, 122)
        case .readOnlyField: (400, 138)
        case .requiredFieldMissing: (400, 107)
        case .invalidRoleName, .immutableField: (400, 139)
        case .roleACLRequired: (400, 107)
        case .invalidCode: (400, 207)
        case .tooManyMessages: (400, 10010)
        case .messageSendFailed, .mobilePhoneNumberMissing, .mobilePhoneNumberNotVerified, .emailNotVerified: (400, 1)
        case .mobilePhoneNumberNotFound, .emailNotFound: (400, 205)
        case .emailMissing: (400, 204)
        case .classExists: (400, 10062)
        case .classNotEmpty: (400, 10074)
        case .invalidAuthData, .authDataTaken, .invalidLinkedSession, .unsupportedAuthPlatform: (400, 208)
        case .authProviderUnavailable: (400, 1)
        case .invalidFileName: (400, 146)
        // Bmob's REST guide: files over the limit get 145; 10076 is its QPS limit.
        case .fileTooLarge: (400, 145)
        case .rateLimited: (400, 10076)
        // Bmob's SDK code 9010 is "network timeout"; refused requests are malformed ones (107), like its 413.
        case .timeout, .requestTimeout: (Self.transportStatus(reason), 9010)
        case .uriTooLong, .headersTooLarge: (Self.transportStatus(reason), 107)
        case .serverBusy: (503, 1)
        // Bmob's 402 "where too long"; 107 for a value it cannot hold.
        case .queryTooComplex: (400, 402)
        case .numberOutOfRange: (400, 107)
        // Bmob's cloud functions answer 101 for an unknown name; the other cloud-code failures keep LeanCloud's codes,
        // which Bmob's table does not cover.
        case .cloudFunctionNotFound: (400, 101)
        case .cloudCodeFailed: (400, 141)
        case .hookRefused: (400, 142)
        case .engineTimeout: (503, 9010)
        case .webhookInvalid: (400, 143)
        case .missingRequiredField: (400, 135)
        case .invalidPush: (400, 1)
        }
    }

    /// The HTTP status of a transport failure, the same in every dialect.
    private static func transportStatus(_ reason: APIError.Reason) -> Int {
        switch reason {
        case .timeout, .serverBusy: 503
        case .requestTimeout: 408
        case .uriTooLong: 414
        case .headersTooLarge: 431
        default: 400
        }
    }
}
