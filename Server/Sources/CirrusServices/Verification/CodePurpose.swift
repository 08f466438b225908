/// What a stored code or link token proves; its raw value is the `purpose` kept in the store.
enum CodePurpose: String, Sendable, CaseIterable {
    /// LeanCloud's and Bmob's generic `requestSmsCode`.
    case sms
    /// `requestLoginSmsCode`: a log-in by phone number and code.
    case login
    /// `requestMobilePhoneVerify`: verifying the user's number.
    case verifyPhone
    /// `requestChangePhoneNumber`: binding a new number to the logged-in user.
    case changePhone
    /// `requestPasswordResetBySmsCode`.
    case resetPasswordBySMS
    /// The token of an e-mailed address verification link.
    case verifyEmail
    /// The token of an e-mailed password reset link.
    case resetPassword

    /// What the code is for, in the words of the `{{op}}` placeholder.
    var operation: String {
        switch self {
        case .sms: "verification"
        case .login: "logging in"
        case .verifyPhone: "verifying your phone number"
        case .changePhone: "changing your phone number"
        case .resetPasswordBySMS, .resetPassword: "resetting your password"
        case .verifyEmail: "verifying your e-mail address"
        }
    }
}
