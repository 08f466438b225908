import CirrusModel
import CirrusServices
import CirrusTesting
import Testing

@Suite("Account pages")
struct AccountPagesTests {
    @Test("pages escape what they echo and are neither cached, framed nor referred")
    func escapingAndHeaders() async throws {
        let accounts = Verification.accounts { $0.messaging.appName = "<b>Shop & Co</b>" }
        try await TestServer.with(accounts: accounts) { client in
            let page = try await client.browse(.get, "/auth/reset-password?token=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
            #expect(page.status == 400)
            #expect(page.bodyText.contains("&lt;b&gt;Shop &amp; Co&lt;/b&gt;"))
            #expect(!page.bodyText.contains("<b>Shop"))
            #expect(!page.bodyText.contains("<script>"))
            #expect(page.header("Cache-Control") == "no-store")
            #expect(page.header("Referrer-Policy") == "no-referrer")
            #expect(page.header("X-Frame-Options") == "DENY")
            #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
            let mail = try await client.signUp(.leancloud, "tom", extra: ["email": "tom@example.com"])
            _ = mail
            #expect(try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "tom@example.com"]).status == 200)
            let text = try #require(client.mailOutbox.last(to: "tom@example.com")?.text)
            #expect(text.contains("your <b>Shop & Co</b> account"))
        }
    }

    @Test("an HTML mail template gets escaped values, a text one raw values")
    func htmlTemplate() async throws {
        let accounts = Verification.accounts {
            $0.messaging.templates.resetPassword = MessageTemplates.Mail(
                subject: "Reset {{appname}}", text: "{{username}} {{link}}", html: "<p>{{username}}</p><a href=\"{{link}}\">reset</a>"
            )
        }
        try await TestServer.with(accounts: accounts) { client in
            _ = try await client.signUp(.leancloud, "<u>", extra: ["email": "u@example.com"])
            #expect(try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "u@example.com"]).status == 200)
            let mail = try #require(client.mailOutbox.last(to: "u@example.com"))
            #expect(mail.text.hasPrefix("<u> https://api.example.com/auth/reset-password?token="))
            #expect(mail.html?.hasPrefix("<p>&lt;u&gt;</p><a href=\"https://api.example.com/auth/reset-password?token=") == true)
        }
    }

    @Test("unknown pages are 404, other methods 405, and API paths are not pages")
    func routing() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            #expect(try await client.browse(.get, "/auth/nothing").status == 404)
            #expect(try await client.browse(.put, "/auth/reset-password").status == 405)
            #expect(try await client.browse(.post, "/auth/verify-email", form: ["token": "x"]).status == 405)
            #expect(try await client.browse(.get, "/auth/verify-email").status == 400)
            let api = try await client.browse(.get, "/authx/verify-email")
            #expect(api.status == 404)
            #expect(api.header("Content-Type") == "application/json; charset=utf-8")
        }
    }
}
