@testable import CirrusMessaging
import CirrusServices
import Testing

@Suite("SMTP replies and capabilities")
struct SMTPReplyTests {
    @Test("continuation lines are joined into one reply")
    func multilineReply() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.add(line: "250-mail.example.com Hello") == nil)
        #expect(try parser.add(line: "250-AUTH=PLAIN") == nil)
        #expect(try parser.add(line: "250-auth login plain") == nil)
        #expect(try parser.add(line: "250-STARTTLS") == nil)
        let reply = try #require(try parser.add(line: "250 SMTPUTF8"))
        #expect(reply.code == 250)
        #expect(reply.lines.count == 5)
        let capabilities = SMTPCapabilities(ehloReply: reply)
        #expect(capabilities.startTLS)
        #expect(capabilities.smtpUTF8)
        #expect(!capabilities.eightBitMIME)
        #expect(capabilities.authMechanisms == ["PLAIN", "LOGIN"])
        #expect(try parser.add(line: "221") == SMTPReply(code: 221, lines: [""]))
    }

    @Test("a malformed line or a code change inside a reply is an error")
    func malformedReplies() throws {
        var parser = SMTPReplyParser()
        #expect(throws: MessagingError.self) { try parser.add(line: "hello") }
        _ = try parser.add(line: "250-first")
        #expect(throws: MessagingError.self) { try parser.add(line: "251 second") }
    }

    @Test("dot-stuffing doubles leading dots and ends with a lone dot")
    func dotStuffing() {
        #expect(SMTPSession.dotStuffed("a\r\n.b\r\n.\r\n") == "a\r\n..b\r\n..\r\n.\r\n")
    }
}
