import CirrusMessaging
import CirrusModel
import CirrusServices
import Foundation
import Testing

@Suite("SMS webhook sender")
struct WebhookSMSSenderTests {
    static func sender(port: Int, token: String? = "t0ken") throws -> WebhookSMSSender {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/sms/send?key=k"))
        return try WebhookSMSSender(configuration: WebhookSMSConfiguration(url: url, bearerToken: token, timeout: 5))
    }

    @Test("the message is posted as JSON with the bearer token")
    func postsJSON() async throws {
        try await HTTPTestListener.with(status: 200, responseBody: "ok") { listener in
            let message = SMSMessage(phoneNumber: "+8618612345678", text: "您的验证码是 123456", code: "123456", purpose: "login")
            try await Self.sender(port: listener.port).send(message)
            let request = try #require(listener.requests.first)
            #expect(request.method == "POST")
            #expect(request.path == "/sms/send?key=k")
            #expect(request.headers["authorization"] == "Bearer t0ken")
            #expect(request.headers["content-type"] == "application/json")
            #expect(
                try JSONParser.parse(request.body)
                    == .object([
                        "phoneNumber": .string("+8618612345678"), "text": .string("您的验证码是 123456"), "code": .string("123456"),
                        "purpose": .string("login"), "channel": .string("sms"),
                    ])
            )
        }
    }

    @Test("without a token no Authorization header is sent, and a missing code is null")
    func noToken() async throws {
        try await HTTPTestListener.with(status: 204) { listener in
            try await Self.sender(port: listener.port, token: nil).send(SMSMessage(phoneNumber: "1", text: "t", code: nil, purpose: "sms"))
            let request = try #require(listener.requests.first)
            #expect(request.headers["authorization"] == nil)
            #expect(try JSONParser.parse(request.body)["code"] == .null)
        }
    }

    @Test("a non-2xx status is an error that quotes the status and body")
    func failureStatus() async throws {
        try await HTTPTestListener.with(status: 502, responseBody: "gateway down") { listener in
            let sender = try Self.sender(port: listener.port)
            await #expect {
                try await sender.send(SMSMessage(phoneNumber: "1", text: "t", code: nil, purpose: "sms"))
            } throws: { error in
                let description = (error as? MessagingError)?.description ?? ""
                return description.contains("502") && description.contains("gateway down") && !description.contains("key=k")
            }
        }
    }

    @Test("a URL that is not http or https is refused")
    func refusesOtherSchemes() throws {
        let url = try #require(URL(string: "ftp://example.com/sms"))
        #expect(throws: MessagingError.self) { try WebhookSMSSender(configuration: .init(url: url)) }
    }
}
