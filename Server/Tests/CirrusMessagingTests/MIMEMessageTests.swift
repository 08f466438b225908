@testable import CirrusMessaging
import CirrusServices
import Foundation
import Testing

@Suite("MIME message rendering")
struct MIMEMessageTests {
    @Test("the Date header is RFC 5322 in UTC")
    func dateHeader() {
        #expect(MIMEMessage.rfc5322Date(Date(timeIntervalSince1970: 1_751_360_703)) == "Tue, 01 Jul 2025 09:05:03 +0000")
    }

    @Test("every line of the rendered message ends in CRLF and stays within 78 characters")
    func lineLengths() {
        let text = String(repeating: "Ünïcödé and a fairly long line of plain words ", count: 20) + "\nend"
        let subject = String(repeating: "很长的主题 ", count: 30)
        let rendered = MIMEMessage(MailMessage(from: "a@example.com", to: ["b@example.com"], subject: subject, text: text)).rendered()
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let lines = rendered.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(ParsedMail(rendered).decodedHeader("Subject") == subject)
        #expect(ParsedMail(rendered).decodedBody == text.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test("a line break in the subject cannot add a header")
    func headerInjection() {
        let message = MailMessage(from: "a@example.com", to: ["b@example.com"], subject: "Hi\r\nBcc: eve@example.com", text: "x")
        let parsed = ParsedMail(MIMEMessage(message).rendered())
        #expect(parsed.header("Bcc") == nil)
        #expect(parsed.header("Subject") == "Hi Bcc: eve@example.com")
    }

    @Test("an ASCII display name is quoted with its quotes escaped")
    func asciiDisplayName() {
        #expect(MIMEMessage.mailbox("a@example.com", name: "Ada \"the\" Admin") == "\"Ada \\\"the\\\" Admin\" <a@example.com>")
        #expect(MIMEMessage.mailbox("a@example.com", name: nil) == "a@example.com")
    }

    @Test("quoted-printable escapes '=', non-ASCII bytes and trailing spaces only")
    func quotedPrintable() {
        #expect(MIMEEncoding.quotedPrintable("a=b é \nnext\ttab\t") == "a=3Db =C3=A9=20\r\nnext\ttab=09")
    }

    @Test("text that looks like an encoded-word is itself encoded")
    func encodedWordLookalike() {
        #expect(MIMEEncoding.headerText("=?UTF-8?B?eA==?=").hasPrefix("=?UTF-8?B?PT9"))
    }
}
