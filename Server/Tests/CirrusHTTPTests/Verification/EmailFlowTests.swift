import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Testing

@Suite("E-mail verification and password reset")
struct EmailFlowTests {
    static let verifying = Verification.accounts { $0.verifyEmailOnSignUp = true }

    @Test("with verifyEmailOnSignUp a sign-up mails a link that verifies the address once", arguments: Endpoint.dialects)
    func verifyOnSignUp(_ endpoint: Endpoint) async throws {
        try await TestServer.with(accounts: Self.verifying) { client in
            let user = try await client.signUp(endpoint, "eve", extra: ["email": "eve@example.com"])
            let mail = try #require(client.mailOutbox.last(to: "eve@example.com"))
            #expect(mail.subject == "Verify your e-mail address for Shop")
            #expect((mail.from, mail.fromName) == ("noreply@localhost", "Shop"))
            #expect(mail.text.contains("Hello eve,"))
            #expect(try await client.user(user.id)["emailVerified"] == false)
            let link = try client.mailedLink(to: "eve@example.com", page: "verify-email")
            let page = try await client.browse(.get, link)
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.bodyText.contains("eve@example.com is now verified"))
            #expect(try await client.user(user.id)["emailVerified"] == true)
            let again = try await client.browse(.get, link)
            #expect(again.status == 400)
            #expect(again.bodyText.contains("Invalid or expired link"))
        }
    }

    @Test("without verifyEmailOnSignUp a sign-up mails nothing")
    func noMailByDefault() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            _ = try await client.signUp(.leancloud, "flo", extra: ["email": "flo@example.com"])
            #expect(client.mailOutbox.messages.isEmpty)
        }
    }

    @Test("changing the e-mail mails a new link; the link to the old address no longer verifies")
    func verifyOnChange() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock) { $0.verifyEmailOnSignUp = true }) { client in
            let user = try await client.signUp(.leancloud, "gus", extra: ["email": "gus@example.com"])
            let oldLink = try client.mailedLink(to: "gus@example.com", page: "verify-email")
            let change = try await client.request(.leancloud, .put, "/classes/_User/\(user.id)", json: ["email": "gus@example.org"], auth: .session(user.token))
            #expect(change.status == 200)
            let newLink = try client.mailedLink(to: "gus@example.org", page: "verify-email")
            #expect(try await client.browse(.get, oldLink).status == 400)
            #expect(try await client.user(user.id)["emailVerified"] == false)
            #expect(try await client.browse(.get, newLink).status == 200)
            #expect(try await client.user(user.id)["emailVerified"] == true)
            clock.advance(seconds: 60)
            let byUsers = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["email": "gus@example.net"], auth: .session(user.token))
            #expect(byUsers.status == 200)
            #expect(client.mailOutbox.last(to: "gus@example.net") != nil)
            #expect(try await client.user(user.id)["emailVerified"] == false)
            let nick = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["nick": "g"], auth: .session(user.token))
            #expect(nick.status == 200)
            #expect(client.mailOutbox.messages.count == 3)
        }
    }

    @Test("requestEmailVerify resends the link (Parse: verificationEmailRequest); 205 unknown, 204 missing")
    func resend() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            _ = try await client.signUp(.leancloud, "hal", extra: ["email": "hal@example.com"])
            _ = try await client.signUp(.leancloud, "ivy", extra: ["email": "ivy@example.com"])
            _ = try await client.signUp(.leancloud, "jon", extra: ["email": "jon@example.com"])
            let leanCloud = try await client.request(.leancloud, .post, "/requestEmailVerify", json: ["email": "hal@example.com"])
            #expect(leanCloud.status == 200 && leanCloud.json == [:])
            let parse = try await client.request(.parse, .post, "/verificationEmailRequest", json: ["email": "ivy@example.com"])
            #expect(parse.status == 200 && parse.json == [:])
            let bmob = try await client.request(.bmob, .post, "/requestEmailVerify", json: ["email": "jon@example.com"])
            #expect(bmob.json == ["msg": "ok"])
            #expect(client.mailOutbox.messages.map(\.to) == [["hal@example.com"], ["ivy@example.com"], ["jon@example.com"]])
            let link = try client.mailedLink(to: "ivy@example.com", page: "verify-email")
            #expect(try await client.browse(.get, link).status == 200)
            let unknown = try await client.request(.leancloud, .post, "/requestEmailVerify", json: ["email": "nobody@example.com"])
            #expect(unknown.code == 205)
            #expect(try await client.request(.parse, .post, "/verificationEmailRequest", json: ["email": "nobody@example.com"]).code == 205)
            #expect(try await client.request(.leancloud, .post, "/requestEmailVerify", json: [:]).code == 204)
            #expect(try await client.request(.leancloud, .post, "/requestEmailVerify", body: "[").code == 107)
        }
    }

    @Test("a second mail to an address within a minute is refused (601)")
    func mailInterval() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            _ = try await client.signUp(.leancloud, "kit", extra: ["email": "kit@example.com"])
            #expect(try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "kit@example.com"]).status == 200)
            // The address in another case is the same account's, within the same minute.
            let second = try await client.request(.leancloud, .post, "/requestEmailVerify", json: ["email": "KIT@example.com"])
            #expect(second.code == 601)
            #expect(try await client.request(.leancloud, .post, "/requestEmailVerify", json: ["email": "kit@example.com"]).code == 601)
        }
    }

    @Test("requestPasswordReset mails a link whose page sets the password once and lifts the lock-out")
    func resetByLink() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let user = try await client.signUp(.leancloud, "lou", extra: ["email": "lou@example.com"])
            for _ in 1...7 { _ = try await client.logIn(.leancloud, "lou", "wrong") }
            #expect(try await client.logIn(.leancloud, "lou", "secret-1").code == 219)
            let reply = try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "lou@example.com"])
            #expect(reply.status == 200 && reply.json == [:])
            let mail = try #require(client.mailOutbox.last(to: "lou@example.com"))
            #expect(mail.subject == "Reset your Shop password")
            let link = try client.mailedLink(to: "lou@example.com", page: "reset-password")
            let token = String(link.split(separator: "=").last ?? "")
            let form = try await client.browse(.get, link)
            #expect(form.status == 200)
            #expect(form.bodyText.contains("<form method=\"post\" action=\"/auth/reset-password\">"))
            #expect(form.bodyText.contains("name=\"token\" value=\"\(token)\""))
            let done = try await client.browse(.post, "/auth/reset-password", form: ["token": token, "password": "fresh pass+1", "confirm": "fresh pass+1"])
            #expect(done.status == 200)
            #expect(done.bodyText.contains("Password changed"))
            #expect(try await client.logIn(.leancloud, "lou", "secret-1").code == 210)
            let logIn = try await client.logIn(.leancloud, "lou", "fresh pass+1")
            #expect(logIn.status == 200)
            #expect(logIn.json["sessionToken"]?.stringValue != user.token)
            let reused = try await client.browse(.post, "/auth/reset-password", form: ["token": token, "password": "other"])
            #expect(reused.status == 400 && reused.bodyText.contains("Invalid or expired link"))
            #expect(try await client.browse(.get, link).status == 400)
        }
    }

    @Test("LeanCloud's requestPasswordReset also matches the username; Parse answers {} and Bmob msg ok; 205 unknown")
    func resetMatching() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            _ = try await client.signUp(.leancloud, "kim@example.com")
            _ = try await client.signUp(.leancloud, "lee", extra: ["email": "lee@example.com"])
            _ = try await client.signUp(.parse, "max", extra: ["email": "max@example.com"])
            _ = try await client.signUp(.bmob, "ned", extra: ["email": "ned@example.com"])
            #expect(try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "kim@example.com"]).status == 200)
            #expect(try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "lee"]).status == 200)
            #expect(client.mailOutbox.messages.map(\.to) == [["kim@example.com"], ["lee@example.com"]])
            let parse = try await client.request(.parse, .post, "/requestPasswordReset", json: ["email": "max@example.com"])
            #expect(parse.status == 200 && parse.json == [:])
            #expect(try await client.request(.parse, .post, "/requestPasswordReset", json: ["email": "lee"]).code == 205)
            let bmob = try await client.request(.bmob, .post, "/requestPasswordReset", json: ["email": "ned@example.com"])
            #expect(bmob.json == ["msg": "ok"])
            for endpoint in Endpoint.dialects {
                #expect(try await client.request(endpoint, .post, "/requestPasswordReset", json: ["email": "nobody@example.com"]).code == 205)
                #expect(try await client.request(endpoint, .post, "/requestPasswordReset", json: [:]).code == 204)
            }
        }
    }

    @Test("the reset page keeps the link after an empty or mismatched password; reset links last a day, verify links a week")
    func linkLifetimes() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock) { $0.verifyEmailOnSignUp = true }) { client in
            _ = try await client.signUp(.leancloud, "oli", extra: ["email": "oli@example.com"])
            let verify = try client.mailedLink(to: "oli@example.com", page: "verify-email")
            clock.advance(seconds: 60)
            #expect(try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "oli@example.com"]).status == 200)
            let reset = try client.mailedLink(to: "oli@example.com", page: "reset-password")
            let token = String(reset.split(separator: "=").last ?? "")
            let empty = try await client.browse(.post, "/auth/reset-password", form: ["token": token, "password": ""])
            #expect(empty.status == 400 && empty.bodyText.contains("Please enter a new password."))
            let mismatch = try await client.browse(.post, "/auth/reset-password", form: ["token": token, "password": "a", "confirm": "b"])
            #expect(mismatch.status == 400 && mismatch.bodyText.contains("The two passwords differ."))
            clock.advance(seconds: 24 * 3600 - 1)
            #expect(try await client.browse(.get, reset).status == 200)
            clock.advance(seconds: 1)
            #expect(try await client.browse(.get, reset).status == 400)
            clock.advance(seconds: 6 * 24 * 3600 - 61)
            #expect(try await client.browse(.get, "/auth/verify-email?token=nonsense").status == 400)
            clock.advance(seconds: 1)
            #expect(try await client.browse(.get, verify).status == 400)
        }
    }

    @Test("a verify link stays valid until a week is over")
    func verifyLinkLastsAWeek() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock) { $0.verifyEmailOnSignUp = true }) { client in
            _ = try await client.signUp(.leancloud, "pam", extra: ["email": "pam@example.com"])
            let verify = try client.mailedLink(to: "pam@example.com", page: "verify-email")
            clock.advance(seconds: 7 * 24 * 3600 - 1)
            #expect(try await client.browse(.get, verify).status == 200)
        }
    }

    @Test("with preventLoginWithUnverifiedEmail a password log-in needs a verified e-mail (216, Parse 205)")
    func unverifiedEmailLogIn() async throws {
        let accounts = Verification.accounts {
            $0.verifyEmailOnSignUp = true
            $0.preventLoginWithUnverifiedEmail = true
        }
        try await TestServer.with(accounts: accounts) { client in
            _ = try await client.signUp(.leancloud, "quin", extra: ["email": "quin@example.com"])
            _ = try await client.signUp(.leancloud, "ray")
            #expect(try await client.logIn(.leancloud, "quin", "secret-1").code == 216)
            #expect(try await client.logIn(.parse, "quin", "secret-1").code == 205)
            #expect(try await client.logIn(.leancloud, "quin", "wrong").code == 210)
            #expect(try await client.logIn(.leancloud, "ray", "secret-1").status == 200)
            #expect(try await client.browse(.get, try client.mailedLink(to: "quin@example.com", page: "verify-email")).status == 200)
            #expect(try await client.logIn(.leancloud, "quin", "secret-1").status == 200)
        }
    }

    @Test("a failed mail transport answers 602 and stores no link, while a sign-up still succeeds")
    func failedMail() async throws {
        try await TestServer.with(accounts: Self.verifying, configure: { $0.mailSender = FailingMailSender() }) { client in
            let user = try await client.signUp(.leancloud, "sue", extra: ["email": "sue@example.com"])
            #expect(try await client.store.code(purpose: "verifyEmail", target: user.id) == nil)
            let reset = try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "sue@example.com"])
            #expect(reset.code == 602)
            #expect(try await client.store.code(purpose: "resetPassword", target: user.id) == nil)
            #expect(try await client.request(.bmob, .post, "/requestPasswordReset", json: ["email": "sue@example.com"]).code == 1)
        }
    }
}
