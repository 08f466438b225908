import Foundation

extension SMTPTestServer {
    /// The server side of one connection as a state machine: each line in gives the actions to take.
    struct Session {
        enum Action: Equatable {
            case reply(String)
            case startTLS
            case deliver(ReceivedMail)
            case close
        }

        enum State {
            case command
            case authPlain
            case authLoginUsername
            case authLoginPassword(username: String)
            case data
        }

        let options: Options
        private(set) var isTLS: Bool
        var state = State.command
        var heloName: String?
        var user: String?
        var sender: String?
        var recipients: [String] = []
        var lines: [String] = []

        init(options: Options) {
            self.options = options
            isTLS = options.implicitTLS
        }

        /// The greeting sent when the connection opens.
        var greeting: [Action] { [.reply("220 localhost ESMTP Cirrus test server")] }

        /// Handles one line from the client (without its line break).
        mutating func receive(_ line: String) -> [Action] {
            switch state {
            case .command: return command(line)
            case .data: return dataLine(line)
            case .authPlain: return finishAuthPlain(line)
            case .authLoginUsername: return authLoginUsername(line)
            case .authLoginPassword(let username): return authLogin(username: username, password: Self.decode(line))
            }
        }

        private mutating func command(_ line: String) -> [Action] {
            let verb = line.prefix { $0 != " " }.uppercased()
            let argument = line.drop { $0 != " " }.trimmingCharacters(in: .whitespaces)
            switch verb {
            case "EHLO": return ehlo(argument)
            case "HELO": return helo(argument)
            case "STARTTLS": return startTLS()
            case "AUTH": return auth(argument)
            case "MAIL": return mail(argument)
            case "RCPT": return rcpt(argument)
            case "DATA": return data()
            case "RSET": return resetTransaction(then: "250 2.0.0 OK")
            case "NOOP": return [.reply("250 2.0.0 OK")]
            case "QUIT": return [.reply("221 2.0.0 Bye"), .close]
            default: return [.reply("500 5.5.2 Command not recognized")]
            }
        }

        private mutating func ehlo(_ name: String) -> [Action] {
            guard options.acceptsEHLO else { return [.reply("502 5.5.1 EHLO not implemented")] }
            heloName = name
            resetTransaction()
            var keywords = ["localhost greets \(name)", "8BITMIME", "SMTPUTF8"]
            if options.tls != nil, !isTLS { keywords.append("STARTTLS") }
            if options.credentials != nil { keywords.append("AUTH " + options.authMechanisms.joined(separator: " ")) }
            let last = keywords.count - 1
            return keywords.enumerated().map { index, keyword in .reply("250\(index == last ? " " : "-")\(keyword)") }
        }

        private mutating func helo(_ name: String) -> [Action] {
            heloName = name
            return resetTransaction(then: "250 localhost")
        }

        private mutating func startTLS() -> [Action] {
            guard options.tls != nil, !isTLS else { return [.reply("454 4.7.0 TLS not available")] }
            isTLS = true
            heloName = nil
            user = nil
            resetTransaction()
            return [.reply("220 2.0.0 Ready to start TLS"), .startTLS]
        }

        /// Forgets the sender, recipients and data of an unfinished message.
        mutating func resetTransaction() {
            sender = nil
            recipients = []
            lines = []
        }

        private mutating func resetTransaction(then reply: String) -> [Action] {
            resetTransaction()
            return [.reply(reply)]
        }
    }
}
