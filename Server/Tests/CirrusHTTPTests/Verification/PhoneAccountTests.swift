import CirrusModel
import CirrusServices
import CirrusTesting
import Testing

@Suite("Phone verification, number change and password reset by SMS")
struct PhoneAccountTests {
    static let number = Verification.number
    static let other = Verification.otherNumber

    @Test("requestMobilePhoneVerify then verifyMobilePhone marks the number verified; a verified number gets no SMS")
    func verifyPhone() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let unknown = try await client.request(.leancloud, .post, "/requestMobilePhoneVerify", json: ["mobilePhoneNumber": .string(Self.number)])
            #expect(unknown.code == 213)
            let user = try await client.signUp(.leancloud, "vic", extra: ["mobilePhoneNumber": .string(Self.number)])
            #expect(try await client.user(user.id)["mobilePhoneVerified"] == false)
            let code = try await client.requestCode(.leancloud, "/requestMobilePhoneVerify", Self.number)
            #expect(client.smsOutbox.last(to: Self.number)?.purpose == "verify")
            let reply = try await client.request(.leancloud, .post, "/verifyMobilePhone/\(code)", json: ["mobilePhoneNumber": .string(Self.number)])
            #expect(reply.status == 200)
            #expect(reply.keys == ["objectId", "updatedAt"])
            #expect(reply.json["objectId"]?.stringValue == user.id)
            #expect(try await client.user(user.id)["mobilePhoneVerified"] == true)
            #expect(try await client.request(.leancloud, .post, "/verifyMobilePhone/\(code)", json: ["mobilePhoneNumber": .string(Self.number)]).code == 603)
            let skipped = try await client.request(.leancloud, .post, "/requestMobilePhoneVerify", json: ["mobilePhoneNumber": .string(Self.number)])
            #expect(skipped.status == 200)
            #expect(client.smsOutbox.messages.count == 1)
        }
    }

    @Test("verifyMobilePhone without a body finds the number by its code, as LeanCloud's JS SDK sends it")
    func verifyPhoneByCodeAlone() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let user = try await client.signUp(.leancloud, "jo", extra: ["mobilePhoneNumber": .string(Self.number)])
            let code = try await client.requestCode(.leancloud, "/requestMobilePhoneVerify", Self.number)
            let wrongCode = code == "000000" ? "111111" : "000000"
            #expect(try await client.request(.leancloud, .post, "/verifyMobilePhone/\(wrongCode)", body: nil).code == 603)
            #expect(try await client.request(.leancloud, .post, "/verifyMobilePhone/\(code)", body: nil).status == 200)
            #expect(try await client.user(user.id)["mobilePhoneVerified"] == true)
        }
    }

    @Test("requestChangePhoneNumber needs a session (403) and a free number (214); changePhoneNumber binds it verified")
    func changeNumber() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let user = try await client.signUp(.leancloud, "cy", extra: ["mobilePhoneNumber": .string(Self.number)])
            _ = try await client.signUp(.leancloud, "dee", extra: ["mobilePhoneNumber": .string(Self.other)])
            let anonymous = try await client.request(.leancloud, .post, "/requestChangePhoneNumber", json: ["mobilePhoneNumber": "+8618600000009"])
            #expect(anonymous.status == 403)
            let stale = try await client.request(
                .leancloud, .post, "/requestChangePhoneNumber", json: ["mobilePhoneNumber": "+8618600000009"], auth: .session("stale-token")
            )
            #expect(stale.status == 403)
            let taken = try await client.request(.leancloud, .post, "/requestChangePhoneNumber", json: ["mobilePhoneNumber": .string(Self.other)], auth: .session(user.token))
            #expect(taken.code == 214)
            let newNumber = "+8618600000009"
            let code = try await client.requestCode(.leancloud, "/requestChangePhoneNumber", newNumber, auth: .session(user.token))
            #expect(client.smsOutbox.last(to: newNumber)?.text.contains("6 minutes") == true)
            let elsewhere = try await client.request(
                .leancloud, .post, "/changePhoneNumber", json: ["mobilePhoneNumber": .string(Self.other), "code": .string(code)], auth: .session(user.token)
            )
            #expect(elsewhere.code == 603)
            let changed = try await client.request(
                .leancloud, .post, "/changePhoneNumber", json: ["mobilePhoneNumber": .string(newNumber), "code": .string(code)], auth: .session(user.token)
            )
            #expect(changed.status == 200)
            let stored = try await client.user(user.id)
            #expect(stored["mobilePhoneNumber"]?.stringValue == newNumber)
            #expect(stored["mobilePhoneVerified"] == true)
            let byNumber = try await client.request(.leancloud, .post, "/login", json: ["mobilePhoneNumber": .string(newNumber), "password": "secret-1"])
            #expect(byNumber.status == 200)
        }
    }

    @Test("a change code sent for one user cannot change another user's number")
    func changeCodeIsPersonal() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let alice = try await client.signUp(.leancloud, "alice")
            let bob = try await client.signUp(.leancloud, "bob")
            let code = try await client.requestCode(.leancloud, "/requestChangePhoneNumber", Self.number, auth: .session(alice.token))
            let body: JSON = ["mobilePhoneNumber": .string(Self.number), "code": .string(code)]
            #expect(try await client.request(.leancloud, .post, "/changePhoneNumber", json: body, auth: .session(bob.token)).code == 603)
            #expect(try await client.request(.leancloud, .post, "/changePhoneNumber", json: body).status == 403)
            #expect(try await client.request(.leancloud, .post, "/changePhoneNumber", json: body, auth: .session(alice.token)).status == 200)
            #expect(try await client.user(bob.id)["mobilePhoneNumber"] == nil)
        }
    }

    @Test("a password reset by SMS code sets the new password and replaces the stable token")
    func resetBySMS() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let unknown = try await client.request(.leancloud, .post, "/requestPasswordResetBySmsCode", json: ["mobilePhoneNumber": .string(Self.number)])
            #expect(unknown.code == 213)
            let user = try await client.signUp(.leancloud, "rae", extra: ["mobilePhoneNumber": .string(Self.number)])
            let code = try await client.requestCode(.leancloud, "/requestPasswordResetBySmsCode", Self.number)
            #expect(client.smsOutbox.last(to: Self.number)?.purpose == "reset")
            let empty = try await client.request(.leancloud, .put, "/resetPasswordBySmsCode/\(code)", json: ["mobilePhoneNumber": .string(Self.number)])
            #expect(empty.code == 218)
            let reply = try await client.request(
                .leancloud, .put, "/resetPasswordBySmsCode/\(code)", json: ["password": "new-pass", "mobilePhoneNumber": .string(Self.number)]
            )
            #expect(reply.status == 200)
            #expect(reply.json == [:])
            #expect(try await client.logIn(.leancloud, "rae", "secret-1").code == 210)
            let fresh = try await client.logIn(.leancloud, "rae", "new-pass")
            #expect(fresh.status == 200)
            #expect(fresh.json["sessionToken"]?.stringValue != user.token)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(user.token)).code == 211)
            let reused = try await client.request(
                .leancloud, .put, "/resetPasswordBySmsCode/\(code)", json: ["password": "other", "mobilePhoneNumber": .string(Self.number)]
            )
            #expect(reused.code == 603)
        }
    }

    @Test("a reset revokes every session only when revokeSessionsOnPasswordChange is on", arguments: [false, true])
    func resetRevokesSessions(_ revokeAll: Bool) async throws {
        try await TestServer.with(accounts: Verification.accounts { $0.revokeSessionsOnPasswordChange = revokeAll }) { client in
            _ = try await client.signUp(.leancloud, "sam", extra: ["mobilePhoneNumber": .string(Self.number)])
            let parseToken = try #require(try await client.logIn(.parse, "sam", "secret-1").json["sessionToken"]?.stringValue)
            let code = try await client.requestCode(.leancloud, "/requestPasswordResetBySmsCode", Self.number)
            let reply = try await client.request(.leancloud, .put, "/resetPasswordBySmsCode/\(code)", json: ["password": "new-pass", "mobilePhoneNumber": .string(Self.number)])
            #expect(reply.status == 200)
            let me = try await client.request(.parse, .get, "/users/me", auth: .session(parseToken))
            #expect(me.status == (revokeAll ? 400 : 200))
        }
    }

    @Test("Bmob resets a password with a generic code alone (PH-7) and answers msg ok; a wrong code is 207")
    func bmobReset() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            _ = try await client.signUp(.bmob, "bel", extra: ["mobilePhoneNumber": .string(Self.number)])
            let code = try await client.requestCode(.bmob, "/requestSmsCode", Self.number)
            let wrongCode = code == "000000" ? "111111" : "000000"
            #expect(try await client.request(.bmob, .put, "/resetPasswordBySmsCode/\(wrongCode)", json: ["password": "new-pass"]).code == 207)
            let reply = try await client.request(.bmob, .put, "/resetPasswordBySmsCode/\(code)", json: ["password": "new-pass"])
            #expect(reply.status == 200)
            #expect(reply.json == ["msg": "ok"])
            #expect(try await client.request(.bmob, .get, "/login?username=bel&password=new-pass").status == 200)
            #expect(try await client.request(.bmob, .put, "/resetPasswordBySmsCode/\(code)", json: ["password": "again"]).code == 207)
        }
    }

    @Test("with requireVerifiedPhoneForSMSReset an unverified number cannot reset (215), a verified one can")
    func resetNeedsVerifiedNumber() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock) { $0.requireVerifiedPhoneForSMSReset = true }) { client in
            _ = try await client.signUp(.leancloud, "uma", extra: ["mobilePhoneNumber": .string(Self.number)])
            let refused = try await client.request(.leancloud, .post, "/requestPasswordResetBySmsCode", json: ["mobilePhoneNumber": .string(Self.number)])
            #expect(refused.code == 215)
            let code = try await client.requestCode(.leancloud, "/requestMobilePhoneVerify", Self.number)
            #expect(try await client.request(.leancloud, .post, "/verifyMobilePhone/\(code)", json: ["mobilePhoneNumber": .string(Self.number)]).status == 200)
            clock.advance(seconds: 60)
            let resetCode = try await client.requestCode(.leancloud, "/requestPasswordResetBySmsCode", Self.number)
            let reply = try await client.request(.leancloud, .put, "/resetPasswordBySmsCode/\(resetCode)", json: ["password": "new-pass", "mobilePhoneNumber": .string(Self.number)])
            #expect(reply.status == 200)
        }
    }

    @Test("wrong SMS codes count toward the lock-out with wrong passwords; a locked account refuses the right code")
    func lockoutByCodes() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock)) { client in
            _ = try await client.signUp(.leancloud, "kai", extra: ["mobilePhoneNumber": .string(Self.number)])
            for _ in 1...3 { #expect(try await client.logIn(.leancloud, "kai", "wrong").code == 210) }
            let code = try await client.requestCode(.leancloud, "/requestLoginSmsCode", Self.number)
            let wrongCode = code == "000000" ? "111111" : "000000"
            let wrongBody: JSON = ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(wrongCode)]
            for _ in 1...3 { #expect(try await client.request(.leancloud, .post, "/login", json: wrongBody).code == 603) }
            #expect(try await client.request(.leancloud, .post, "/login", json: wrongBody).code == 219)
            let right = try await client.request(.leancloud, .post, "/login", json: ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(code)])
            #expect(right.code == 219)
            #expect(try await client.logIn(.leancloud, "kai", "secret-1").code == 219)
            clock.advance(seconds: 15 * 60 + 1)
            let fresh = try await client.requestCode(.leancloud, "/requestLoginSmsCode", Self.number)
            let unlocked = try await client.request(.leancloud, .post, "/login", json: ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(fresh)])
            #expect(unlocked.status == 200)
        }
    }

    @Test("wrong reset and verification codes lock the account too")
    func lockoutByResetCodes() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            _ = try await client.signUp(.leancloud, "lee", extra: ["mobilePhoneNumber": .string(Self.number)])
            let code = try await client.requestCode(.leancloud, "/requestPasswordResetBySmsCode", Self.number)
            let wrongCode = code == "000000" ? "111111" : "000000"
            var codes: [Int64?] = []
            for _ in 1...7 {
                let reply = try await client.request(
                    .leancloud, .put, "/resetPasswordBySmsCode/\(wrongCode)", json: ["password": "x", "mobilePhoneNumber": .string(Self.number)]
                )
                codes.append(reply.code)
            }
            #expect(codes == [603, 603, 603, 603, 603, 603, 219])
            #expect(try await client.logIn(.leancloud, "lee", "secret-1").code == 219)
        }
    }

    @Test("with preventLoginWithUnverifiedPhone a log-in by number and password needs a verified number (215)")
    func unverifiedPhoneLogIn() async throws {
        try await TestServer.with(accounts: Verification.accounts { $0.preventLoginWithUnverifiedPhone = true }) { client in
            _ = try await client.signUp(.leancloud, "pia", extra: ["mobilePhoneNumber": .string(Self.number)])
            let byNumber: JSON = ["mobilePhoneNumber": .string(Self.number), "password": "secret-1"]
            #expect(try await client.request(.leancloud, .post, "/login", json: byNumber).code == 215)
            #expect(try await client.request(.bmob, .get, "/login?username=%2B8618600000001&password=secret-1").code == 1)
            #expect(try await client.request(.leancloud, .post, "/login", json: ["mobilePhoneNumber": .string(Self.number), "password": "wrong"]).code == 210)
            #expect(try await client.logIn(.leancloud, "pia", "secret-1").status == 200)
            let code = try await client.requestCode(.leancloud, "/requestMobilePhoneVerify", Self.number)
            #expect(try await client.request(.leancloud, .post, "/verifyMobilePhone/\(code)", json: ["mobilePhoneNumber": .string(Self.number)]).status == 200)
            #expect(try await client.request(.leancloud, .post, "/login", json: byNumber).status == 200)
        }
    }
}
