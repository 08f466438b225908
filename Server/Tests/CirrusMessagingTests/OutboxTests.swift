import CirrusModel
import CirrusServices
import CirrusTesting
import Foundation
import Testing

@Suite("Development outbox")
struct OutboxTests {
    @Test("the mail outbox keeps messages and writes one JSON line each")
    func mailOutbox() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/outbox/mail.jsonl"
        let outbox = OutboxMailSender(filePath: path)
        try await outbox.send(MailMessage(from: "noreply@example.com", to: ["ada@example.com"], subject: "One", text: "Hi\nAda"))
        try await outbox.send(
            MailMessage(from: "noreply@example.com", fromName: "云端", to: ["bob@example.com"], subject: "Two", text: "Hi", html: "<p>Hi</p>")
        )
        #expect(outbox.messages.map(\.subject) == ["One", "Two"])
        #expect(outbox.last(to: "ada@example.com")?.text == "Hi\nAda")
        #expect(outbox.last(to: "eve@example.com") == nil)

        let lines = try Self.jsonLines(path)
        #expect(lines.count == 2)
        #expect(lines[0]["to"] == .array([.string("ada@example.com")]))
        #expect(lines[0]["text"] == .string("Hi\nAda"))
        #expect(lines[0]["html"] == .null)
        #expect(lines[1]["fromName"] == .string("云端"))
        #expect(lines[1]["html"] == .string("<p>Hi</p>"))
        let time = try #require(lines[1]["time"]?.stringValue)
        #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time).timeIntervalSinceNow > -60)
    }

    @Test("the SMS outbox keeps messages and writes one JSON line each")
    func smsOutbox() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/outbox/sms.jsonl"
        let outbox = OutboxSMSSender(filePath: path)
        try await outbox.send(SMSMessage(phoneNumber: "+8618612345678", text: "Your code is 123456", code: "123456", purpose: "login"))
        try await outbox.send(SMSMessage(phoneNumber: "18612345678", text: "Hello", code: nil, purpose: "sms", channel: "voice"))
        #expect(outbox.last(to: "+8618612345678")?.code == "123456")
        #expect(outbox.messages.count == 2)

        let lines = try Self.jsonLines(path)
        #expect(lines.count == 2)
        #expect(lines[0]["phoneNumber"] == .string("+8618612345678"))
        #expect(lines[0]["code"] == .string("123456"))
        #expect(lines[0]["purpose"] == .string("login"))
        #expect(lines[1]["code"] == .null)
        #expect(lines[1]["channel"] == .string("voice"))
        #expect(lines[1]["time"]?.stringValue?.hasSuffix("Z") == true)
    }

    @Test("an outbox without a file keeps messages in memory only")
    func memoryOnly() async throws {
        let outbox = OutboxSMSSender()
        try await outbox.send(SMSMessage(phoneNumber: "1", text: "t", code: nil, purpose: "sms"))
        outbox.removeAll()
        #expect(outbox.messages.isEmpty)
    }

    @Test("concurrent sends all reach memory and the file")
    func concurrentSends() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outbox = OutboxMailSender(filePath: directory.path + "/mail.jsonl")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0 ..< 50 {
                group.addTask {
                    try await outbox.send(MailMessage(from: "a@example.com", to: ["u\(index)@example.com"], subject: "\(index)", text: "x"))
                }
            }
            try await group.waitForAll()
        }
        #expect(outbox.messages.count == 50)
        #expect(try Self.jsonLines(directory.path + "/mail.jsonl").count == 50)
    }

    static func jsonLines(_ path: String) throws -> [JSON] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        return try text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
    }
}
