import Foundation

extension SMTPTestServer.Session {
    /// AUTH PLAIN [initial response] and AUTH LOGIN [user name].
    mutating func auth(_ argument: String) -> [Action] {
        guard options.credentials != nil else { return [.reply("503 5.5.1 AUTH not available")] }
        guard user == nil else { return [.reply("503 5.5.1 Already authenticated")] }
        let words = argument.split(separator: " ").map(String.init)
        let mechanism = words.first?.uppercased() ?? ""
        guard options.authMechanisms.contains(mechanism) else { return [.reply("504 5.5.4 Unrecognized mechanism")] }
        switch (mechanism, words.count > 1 ? words[1] : nil) {
        case ("PLAIN", let response?):
            return finishAuthPlain(response)
        case ("PLAIN", nil):
            state = .authPlain
            return [.reply("334 ")]
        case ("LOGIN", let username?):
            state = .authLoginPassword(username: Self.decode(username))
            return [.reply("334 UGFzc3dvcmQ6")]
        default:
            state = .authLoginUsername
            return [.reply("334 VXNlcm5hbWU6")]
        }
    }

    /// The PLAIN response: base64 of `authzid NUL authcid NUL password`.
    mutating func finishAuthPlain(_ response: String) -> [Action] {
        let parts = Self.decode(response).split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else {
            state = .command
            return [.reply("501 5.5.2 Malformed AUTH PLAIN response")]
        }
        return authLogin(username: parts[1], password: parts[2])
    }

    /// The LOGIN user name, after `334 Username:`.
    mutating func authLoginUsername(_ line: String) -> [Action] {
        state = .authLoginPassword(username: Self.decode(line))
        return [.reply("334 UGFzc3dvcmQ6")]
    }

    /// Checks the credentials: 235 and the user is authenticated, or 535.
    mutating func authLogin(username: String, password: String) -> [Action] {
        state = .command
        guard options.credentials == SMTPTestServer.Credentials(username: username, password: password) else {
            return [.reply("535 5.7.8 Authentication credentials invalid")]
        }
        user = username
        return [.reply("235 2.7.0 Authentication successful")]
    }

    /// Base64 text as UTF-8; empty when it is not base64.
    static func decode(_ base64: String) -> String {
        Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
