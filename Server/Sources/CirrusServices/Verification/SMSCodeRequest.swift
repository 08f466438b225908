package import CirrusModel

/// A request for an SMS code, read from a `requestSmsCode`-like body: `mobilePhoneNumber` and, optionally, `ttl`
/// (minutes), `smsType` (`sms` or `voice`), `template` (a named text), `name` and `op` (the app name and the
/// operation the text names) and further template variables.
package struct SMSCodeRequest: Sendable {
    package var phoneNumber: String
    /// The code's lifetime in minutes; `nil` for the configured one.
    package var ttlMinutes: Int?
    /// `sms` or `voice`.
    package var channel: String
    /// The name of a configured SMS text.
    package var templateName: String?
    /// Values for the text's placeholders given by the client (`name`, `op` and any others).
    package var variables: [String: String]

    /// Body fields that are not template variables.
    static let reservedKeys: Set<String> = ["mobilePhoneNumber", "ttl", "smsType", "template", "sign", "validate_token", "code", "smsCode"]

    package init(phoneNumber: String, ttlMinutes: Int? = nil, channel: String = "sms", templateName: String? = nil, variables: [String: String] = [:]) {
        self.phoneNumber = phoneNumber
        self.ttlMinutes = ttlMinutes
        self.channel = channel
        self.templateName = templateName
        self.variables = variables
    }

    /// Reads a request body.
    /// - Throws: ``APIError``: ``APIError/Reason/invalidJSON`` unless the body is an object,
    ///   ``APIError/Reason/mobilePhoneNumberMissing`` (212), ``APIError/Reason/invalidMobilePhoneNumber`` (127), or
    ///   ``APIError/Reason/invalidParameter`` for a `ttl` outside 1–60 minutes or an unknown `smsType`.
    package init(body: JSON) throws(APIError) {
        guard case .object(let members) = body else { throw APIError(.invalidJSON, "A JSON object is expected as the body.") }
        phoneNumber = try Self.phoneNumber(members["mobilePhoneNumber"])
        ttlMinutes = try Self.ttl(members["ttl"])
        switch members["smsType"]?.stringValue ?? "sms" {
        case "sms": channel = "sms"
        case "voice": channel = "voice"
        case let other: throw APIError(.invalidParameter, "smsType must be 'sms' or 'voice', not '\(other)'.")
        }
        templateName = members["template"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        variables = [:]
        for (key, value) in members where !Self.reservedKeys.contains(key) {
            if let text = value.stringValue ?? value.intValue.map(String.init) { variables[key] = text }
        }
    }

    /// A phone number from a body member.
    /// - Throws: ``APIError`` ``APIError/Reason/mobilePhoneNumberMissing`` or
    ///   ``APIError/Reason/invalidMobilePhoneNumber``.
    package static func phoneNumber(_ value: JSON?) throws(APIError) -> String {
        guard let value, !value.isNull, value.stringValue != "" else {
            throw APIError(.mobilePhoneNumberMissing, "Mobile phone number is missing.")
        }
        guard let number = value.stringValue, UserRules.isPhoneNumber(number) else {
            throw APIError(.invalidMobilePhoneNumber, "The mobile phone number is invalid.")
        }
        return number
    }

    private static func ttl(_ value: JSON?) throws(APIError) -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let minutes = value.intValue.map({ Int($0) }) ?? value.stringValue.flatMap({ Int($0) }), (1...60).contains(minutes) else {
            throw APIError(.invalidParameter, "ttl must be a number of minutes from 1 to 60.")
        }
        return minutes
    }
}
