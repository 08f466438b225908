import CirrusModel
import CirrusServices
import CirrusTesting
import Testing

@Suite("Sign-up and log-in by SMS code")
struct PhoneLogInTests {
    static let number = Verification.number

    @Test("usersByMobilePhone signs up a user named after the number, verified, without a password (201)")
    func signUpByCode() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let code = try await client.requestCode(.leancloud, "/requestSmsCode", Self.number)
            let reply = try await client.request(.leancloud, .post, "/usersByMobilePhone", json: [
                "mobilePhoneNumber": .string(Self.number), "smsCode": .string(code),
            ])
            #expect(reply.status == 201)
            let id = try #require(reply.json["objectId"]?.stringValue)
            #expect(reply.header("Location") == "/1.1/classes/_User/\(id)")
            #expect(reply.json["username"]?.stringValue == Self.number)
            #expect(reply.json["mobilePhoneNumber"]?.stringValue == Self.number)
            #expect(reply.json["mobilePhoneVerified"] == true)
            #expect(reply.json["emailVerified"] == false)
            #expect(reply.json["smsCode"] == nil)
            let token = try #require(reply.json["sessionToken"]?.stringValue)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(token)).json["objectId"]?.stringValue == id)
            let byPassword = try await client.request(.leancloud, .post, "/login", json: ["mobilePhoneNumber": .string(Self.number), "password": "anything"])
            #expect(byPassword.code == 210)
            let reused = try await client.request(.leancloud, .post, "/usersByMobilePhone", json: ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(code)])
            #expect(reused.code == 603)
        }
    }

    @Test("usersByMobilePhone logs in the user who has the number (200) with its stable token and verifies the number")
    func logInByCode() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let user = try await client.signUp(.leancloud, "ada", extra: ["mobilePhoneNumber": .string(Self.number)])
            let code = try await client.requestCode(.leancloud, "/requestSmsCode", Self.number)
            let reply = try await client.request(.leancloud, .post, "/usersByMobilePhone", json: [
                "mobilePhoneNumber": .string(Self.number), "smsCode": .string(code), "username": "ignored", "password": "ignored",
            ])
            #expect(reply.status == 200)
            #expect(reply.json["objectId"]?.stringValue == user.id)
            #expect(reply.json["sessionToken"]?.stringValue == user.token)
            #expect(reply.json["username"] == "ada")
            #expect(reply.json["mobilePhoneVerified"] == true)
            #expect(try await client.logIn(.leancloud, "ada", "secret-1").status == 200)
        }
    }

    @Test("usersByMobilePhone takes a username, a password and other fields at sign-up")
    func signUpWithFields() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let code = try await client.requestCode(.leancloud, "/requestSmsCode", Self.number)
            let reply = try await client.request(.leancloud, .post, "/usersByMobilePhone", json: [
                "mobilePhoneNumber": .string(Self.number), "smsCode": .string(code), "username": "pat", "password": "pw-1", "nick": "P",
                "mobilePhoneVerified": false, "emailVerified": true,
            ])
            #expect(reply.status == 201)
            #expect(reply.json["nick"] == "P")
            #expect(reply.json["mobilePhoneVerified"] == true)
            #expect(reply.json["emailVerified"] == false)
            #expect(try await client.logIn(.leancloud, "pat", "pw-1").status == 200)
        }
    }

    @Test("wrong, missing and unsent codes, and a missing number, are refused by usersByMobilePhone")
    func signUpFailures() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let number = JSON.string(Self.number)
            let unsent = try await client.request(.leancloud, .post, "/usersByMobilePhone", json: ["mobilePhoneNumber": number, "smsCode": "123456"])
            #expect(unsent.code == 603)
            let code = try await client.requestCode(.leancloud, "/requestSmsCode", Self.number)
            let wrongCode = code == "000000" ? "111111" : "000000"
            #expect(try await client.request(.leancloud, .post, "/usersByMobilePhone", json: ["mobilePhoneNumber": number, "smsCode": .string(wrongCode)]).code == 603)
            #expect(try await client.request(.leancloud, .post, "/usersByMobilePhone", json: ["mobilePhoneNumber": number]).code == 603)
            #expect(try await client.request(.leancloud, .post, "/usersByMobilePhone", json: ["smsCode": .string(code)]).code == 212)
            #expect(try await client.request(.leancloud, .post, "/usersByMobilePhone", body: "nope").code == 107)
            #expect(try await client.request(.leancloud, .post, "/usersByMobilePhone", json: ["mobilePhoneNumber": number, "smsCode": .string(code)]).status == 201)
        }
    }

    @Test("a taken username refuses the sign-up (202) and leaves the code usable")
    func takenUsername() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            _ = try await client.signUp(.leancloud, "taken")
            let code = try await client.requestCode(.leancloud, "/requestSmsCode", Self.number)
            let body: [String: JSON] = ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(code)]
            let taken = try await client.request(.leancloud, .post, "/usersByMobilePhone", json: .object(body.merging(["username": "taken"]) { $1 }))
            #expect(taken.code == 202)
            #expect(try await client.request(.leancloud, .post, "/usersByMobilePhone", json: .object(body)).status == 201)
        }
    }

    @Test("Bmob's POST /users with mobilePhoneNumber and smsCode signs up (201), then logs in (200)")
    func bmobOneStep() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock)) { client in
            let first = try await client.requestCode(.bmob, "/requestSmsCode", Self.number)
            let created = try await client.request(.bmob, .post, "/users", json: ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(first)])
            #expect(created.status == 201)
            #expect(created.json["username"]?.stringValue == Self.number)
            #expect(WireFormat.matches(created.json["createdAt"]?.stringValue, WireFormat.spaced))
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(created.header("Location") == "/1/users/\(id)")
            clock.advance(seconds: 60)
            let second = try await client.requestCode(.bmob, "/requestSmsCode", Self.number)
            let again = try await client.request(.bmob, .post, "/users", json: ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(second)])
            #expect(again.status == 200)
            #expect(again.json["objectId"]?.stringValue == id)
            #expect(again.json["sessionToken"] == created.json["sessionToken"])
        }
    }

    @Test("requestLoginSmsCode needs a user with the number (213); its code logs in by POST /login")
    func leanCloudLogInCode() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let unknown = try await client.request(.leancloud, .post, "/requestLoginSmsCode", json: ["mobilePhoneNumber": .string(Self.number)])
            #expect(unknown.code == 213)
            let user = try await client.signUp(.leancloud, "lin", extra: ["mobilePhoneNumber": .string(Self.number)])
            let code = try await client.requestCode(.leancloud, "/requestLoginSmsCode", Self.number)
            #expect(client.smsOutbox.last(to: Self.number)?.purpose == "login")
            let wrongCode = code == "000000" ? "111111" : "000000"
            let wrong = try await client.request(.leancloud, .post, "/login", json: ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(wrongCode)])
            #expect(wrong.code == 603)
            let reply = try await client.request(.leancloud, .post, "/login", json: ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(code)])
            #expect(reply.status == 200)
            #expect(reply.json["objectId"]?.stringValue == user.id)
            #expect(reply.json["sessionToken"]?.stringValue == user.token)
            #expect(reply.json["mobilePhoneVerified"] == true)
            let stranger = try await client.request(.leancloud, .post, "/login", json: ["mobilePhoneNumber": .string(Verification.otherNumber), "smsCode": "123456"])
            #expect(stranger.code == 211)
        }
    }

    @Test("Bmob logs in by phone number and generic code (PH-4); an unknown number is 101")
    func bmobLogInCode() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let user = try await client.signUp(.bmob, "bo", extra: ["mobilePhoneNumber": .string(Self.number)])
            let code = try await client.requestCode(.bmob, "/requestSmsCode", Self.number)
            let reply = try await client.request(.bmob, .post, "/login", json: ["mobilePhoneNumber": .string(Self.number), "smsCode": .string(code)])
            #expect(reply.status == 200)
            #expect(reply.json["objectId"]?.stringValue == user.id)
            #expect(reply.json["sessionToken"]?.stringValue == user.token)
            let unknown = try await client.request(.bmob, .post, "/login", json: ["mobilePhoneNumber": .string(Verification.otherNumber), "smsCode": .string(code)])
            #expect(unknown.code == 101)
        }
    }
}
