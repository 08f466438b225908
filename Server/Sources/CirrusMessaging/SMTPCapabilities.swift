/// The extensions a server announced in its EHLO reply.
struct SMTPCapabilities: Sendable, Equatable {
    /// Whether STARTTLS is offered.
    var startTLS = false
    /// The offered AUTH mechanisms, upper-cased (`PLAIN`, `LOGIN`, ...).
    var authMechanisms: Set<String> = []
    /// Whether 8BITMIME is offered.
    var eightBitMIME = false
    /// Whether SMTPUTF8 (UTF-8 addresses) is offered.
    var smtpUTF8 = false

    /// No extensions: what a server that only answers HELO offers.
    init() {}

    /// Reads the capabilities from an EHLO reply, whose first line is the greeting and each further line a keyword
    /// with its parameters (`AUTH PLAIN LOGIN`; the obsolete `AUTH=PLAIN` form is read too).
    init(ehloReply reply: SMTPReply) {
        for line in reply.lines.dropFirst() {
            let words = line.uppercased().split(whereSeparator: { $0 == " " || $0 == "=" }).map(String.init)
            guard let keyword = words.first else { continue }
            switch keyword {
            case "STARTTLS": startTLS = true
            case "AUTH": authMechanisms.formUnion(words.dropFirst())
            case "8BITMIME": eightBitMIME = true
            case "SMTPUTF8": smtpUTF8 = true
            default: break
            }
        }
    }
}
