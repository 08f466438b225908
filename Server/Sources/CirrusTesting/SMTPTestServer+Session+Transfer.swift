extension SMTPTestServer.Session {
    /// MAIL FROM:<address> [parameters]
    mutating func mail(_ argument: String) -> [Action] {
        if options.credentials != nil, user == nil { return [.reply("530 5.7.0 Authentication required")] }
        guard argument.uppercased().hasPrefix("FROM:"), let address = Self.address(in: argument) else {
            return [.reply("501 5.5.4 Syntax: MAIL FROM:<address>")]
        }
        sender = address
        recipients = []
        return [.reply("250 2.1.0 OK")]
    }

    /// RCPT TO:<address>
    mutating func rcpt(_ argument: String) -> [Action] {
        guard sender != nil else { return [.reply("503 5.5.1 Need MAIL first")] }
        guard argument.uppercased().hasPrefix("TO:"), let address = Self.address(in: argument) else {
            return [.reply("501 5.5.4 Syntax: RCPT TO:<address>")]
        }
        let rejected = options.rejectedRecipients.contains { $0.lowercased() == address.lowercased() }
        if rejected { return [.reply("550 5.1.1 <\(address)>: Recipient address rejected: User unknown")] }
        recipients.append(address)
        return [.reply("250 2.1.5 OK")]
    }

    /// DATA
    mutating func data() -> [Action] {
        guard !recipients.isEmpty else { return [.reply("503 5.5.1 Need RCPT first")] }
        state = .data
        return [.reply("354 End data with <CR><LF>.<CR><LF>")]
    }

    /// A line of the message; `.` alone ends it, a leading `.` is removed (RFC 5321 §4.5.2).
    mutating func dataLine(_ line: String) -> [Action] {
        guard line != "." else { return finishData() }
        lines.append(line.hasPrefix(".") ? String(line.dropFirst()) : line)
        return []
    }

    private mutating func finishData() -> [Action] {
        let mail = SMTPTestServer.ReceivedMail(
            from: sender ?? "", recipients: recipients, data: lines.map { $0 + "\r\n" }.joined(), isTLS: isTLS,
            authenticatedUser: user, heloName: heloName
        )
        state = .command
        resetTransaction()
        return [.deliver(mail), .reply("250 2.0.0 OK queued")]
    }

    /// The address between `<` and `>`.
    static func address(in argument: String) -> String? {
        guard let open = argument.firstIndex(of: "<"), let close = argument[open...].firstIndex(of: ">") else { return nil }
        return String(argument[argument.index(after: open) ..< close])
    }
}
