import CirrusModel
public import Foundation

/// SMS verification codes not tied to a user: request one for a number, then check it.
public enum LCSMSClient {
    /// Sends a verification code to `mobilePhoneNumber` (`POST /1.1/requestSmsCode`).
    /// - Parameters:
    ///   - applicationName: the app name the message shows (`name`).
    ///   - operation: what the code is for, shown in the message (`op`).
    ///   - timeToLive: minutes the code stays valid (`ttl`).
    public static func requestVerificationCode(
        application: LCApplication = .default, mobilePhoneNumber: String, applicationName: String? = nil, operation: String? = nil,
        timeToLive: Int? = nil
    ) async throws {
        var body: [String: JSON] = ["mobilePhoneNumber": .string(mobilePhoneNumber)]
        if let applicationName { body["name"] = .string(applicationName) }
        if let operation { body["op"] = .string(operation) }
        if let timeToLive { body["ttl"] = .int(Int64(timeToLive)) }
        _ = try await RESTClient(application: application).send("POST", "/requestSmsCode", body: .object(body), session: .token(nil))
    }

    /// Checks a code sent to `mobilePhoneNumber` (`POST /1.1/verifySmsCode/<code>`).
    /// - Throws: `LCError` 603 for a wrong or expired code.
    public static func verifyMobilePhoneNumber(application: LCApplication = .default, _ mobilePhoneNumber: String, verificationCode: String) async throws {
        let path = "/verifySmsCode/" + RESTClient.encode(verificationCode)
        let body: JSON = ["mobilePhoneNumber": .string(mobilePhoneNumber)]
        _ = try await RESTClient(application: application).send("POST", path, body: body, session: .token(nil))
    }

    /// Sends a verification code; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func requestVerificationCode(
        application: LCApplication = .default, mobilePhoneNumber: String, applicationName: String? = nil, operation: String? = nil,
        timeToLive: Int? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await requestVerificationCode(
                application: application, mobilePhoneNumber: mobilePhoneNumber, applicationName: applicationName, operation: operation,
                timeToLive: timeToLive
            )
        }
    }

    /// Checks a code; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func verifyMobilePhoneNumber(
        application: LCApplication = .default, _ mobilePhoneNumber: String, verificationCode: String, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) {
            try await verifyMobilePhoneNumber(application: application, mobilePhoneNumber, verificationCode: verificationCode)
        }
    }
}
