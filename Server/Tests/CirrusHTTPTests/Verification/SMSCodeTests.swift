import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Testing

@Suite("Generic SMS codes")
struct SMSCodeTests {
    @Test("LeanCloud requestSmsCode sends a 6-digit code that verifySmsCode accepts once")
    func leanCloudCode() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let reply = try await client.request(.leancloud, .post, "/requestSmsCode", json: ["mobilePhoneNumber": .string(Verification.number)])
            #expect(reply.status == 200)
            #expect(reply.json == [:])
            let message = try #require(client.smsOutbox.last(to: Verification.number))
            let code = try #require(message.code)
            #expect(WireFormat.matches(code, "[0-9]{6}"))
            #expect(message.text.contains(code) && message.text.contains("Shop") && message.text.contains("10 minutes"))
            #expect((message.purpose, message.channel) == ("sms", "sms"))
            let verified = try await client.request(.leancloud, .post, "/verifySmsCode/\(code)", json: ["mobilePhoneNumber": .string(Verification.number)])
            #expect(verified.status == 200)
            #expect(verified.json == [:])
            let reused = try await client.request(.leancloud, .post, "/verifySmsCode/\(code)", json: ["mobilePhoneNumber": .string(Verification.number)])
            #expect(reused.status == 400)
            #expect(reused.code == 603)
            #expect(reused.json["error"] == "Invalid SMS code.")
        }
    }

    @Test("Bmob requestSmsCode answers an smsId, verifySmsCode answers msg ok, and a wrong code is 207")
    func bmobCode() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let reply = try await client.request(.bmob, .post, "/requestSmsCode", json: ["mobilePhoneNumber": .string(Verification.number), "template": ""])
            #expect(reply.status == 200)
            #expect(reply.keys == ["smsId"])
            #expect(reply.json["smsId"]?.intValue != nil)
            let code = try #require(client.smsOutbox.last(to: Verification.number)?.code)
            let wrongCode = code == "000000" ? "111111" : "000000"
            let wrong = try await client.request(.bmob, .post, "/verifySmsCode/\(wrongCode)", json: ["mobilePhoneNumber": .string(Verification.number)])
            #expect(wrong.code == 207)
            let right = try await client.request(.bmob, .post, "/verifySmsCode/\(code)", json: ["mobilePhoneNumber": .string(Verification.number)])
            #expect(right.status == 200)
            #expect(right.json == ["msg": "ok"])
        }
    }

    @Test("a code dies after 5 wrong tries, while 4 wrong tries leave it usable")
    func wrongTries() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            for (number, wrongTries, expected) in [(Verification.number, 4, 200), (Verification.otherNumber, 5, 400)] {
                let code = try await client.requestCode(.leancloud, "/requestSmsCode", number)
                let wrongCode = code == "999999" ? "888888" : "999999"
                for _ in 0..<wrongTries {
                    let wrong = try await client.request(.leancloud, .post, "/verifySmsCode/\(wrongCode)", json: ["mobilePhoneNumber": .string(number)])
                    #expect(wrong.code == 603)
                }
                let right = try await client.request(.leancloud, .post, "/verifySmsCode/\(code)", json: ["mobilePhoneNumber": .string(number)])
                #expect(right.status == expected, "after \(wrongTries) wrong tries")
            }
        }
    }

    @Test("a code expires after 10 minutes, or after the ttl the request names")
    func expiry() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock)) { client in
            let lasting = try await client.requestCode(.leancloud, "/requestSmsCode", Verification.number)
            let short = try await client.requestCode(.leancloud, "/requestSmsCode", Verification.otherNumber, extra: ["ttl": 2])
            #expect(client.smsOutbox.last(to: Verification.otherNumber)?.text.contains("2 minutes") == true)
            clock.advance(seconds: 2 * 60)
            let expired = try await client.request(.leancloud, .post, "/verifySmsCode/\(short)", json: ["mobilePhoneNumber": .string(Verification.otherNumber)])
            #expect(expired.code == 603)
            clock.advance(seconds: 8 * 60 - 1)
            let stillValid = try await client.request(.leancloud, .post, "/verifySmsCode/\(lasting)", json: ["mobilePhoneNumber": .string(Verification.number)])
            #expect(stillValid.status == 200)
            let again = try await client.requestCode(.leancloud, "/requestSmsCode", Verification.number)
            clock.advance(seconds: 10 * 60)
            let late = try await client.request(.leancloud, .post, "/verifySmsCode/\(again)", json: ["mobilePhoneNumber": .string(Verification.number)])
            #expect(late.code == 603)
        }
    }

    @Test("a second send to a number within 60 seconds is refused: LeanCloud 601, Bmob 10010")
    func interval() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock)) { client in
            _ = try await client.requestCode(.leancloud, "/requestSmsCode", Verification.number)
            let body: JSON = ["mobilePhoneNumber": .string(Verification.number)]
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: body).code == 601)
            clock.advance(seconds: 59)
            #expect(try await client.request(.bmob, .post, "/requestSmsCode", json: body).code == 10010)
            clock.advance(seconds: 1)
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: body).status == 200)
            #expect(client.smsOutbox.messages.count == 2)
        }
    }

    @Test("the 11th send to a number within 24 hours is refused, and a day later it goes again")
    func dailyLimit() async throws {
        let clock = TestClock()
        try await TestServer.with(accounts: Verification.accounts(clock: clock)) { client in
            for _ in 1...10 {
                _ = try await client.requestCode(.leancloud, "/requestSmsCode", Verification.number)
                clock.advance(seconds: 61)
            }
            let body: JSON = ["mobilePhoneNumber": .string(Verification.number)]
            let eleventh = try await client.request(.leancloud, .post, "/requestSmsCode", json: body)
            #expect(eleventh.code == 601)
            #expect(try await client.request(.bmob, .post, "/requestSmsCode", json: body).code == 10010)
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: ["mobilePhoneNumber": .string(Verification.otherNumber)]).status == 200)
            clock.advance(seconds: 24 * 3600 - 10 * 61)
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: body).status == 200)
        }
    }

    @Test("a sandbox number gets no SMS and its fixed code is accepted every time")
    func sandbox() async throws {
        let accounts = Verification.accounts { $0.messaging.sandboxNumbers = [Verification.sandboxNumber: Verification.sandboxCode] }
        try await TestServer.with(accounts: accounts) { client in
            let body: JSON = ["mobilePhoneNumber": .string(Verification.sandboxNumber)]
            for _ in 1...3 {
                #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: body).status == 200)
                #expect(try await client.request(.leancloud, .post, "/verifySmsCode/\(Verification.sandboxCode)", json: body).status == 200)
            }
            #expect(client.smsOutbox.messages.isEmpty)
            #expect(try await client.request(.leancloud, .post, "/verifySmsCode/654321", json: body).code == 603)
            let signUp = try await client.request(.leancloud, .post, "/usersByMobilePhone", json: [
                "mobilePhoneNumber": .string(Verification.sandboxNumber), "smsCode": .string(Verification.sandboxCode),
            ])
            #expect(signUp.status == 201)
            let logIn = try await client.request(.leancloud, .post, "/login", json: [
                "mobilePhoneNumber": .string(Verification.sandboxNumber), "smsCode": .string(Verification.sandboxCode),
            ])
            #expect(logIn.status == 200)
            #expect(logIn.json["objectId"] == signUp.json["objectId"])
        }
    }

    @Test("a missing number is 212 (Bmob 1), a malformed one 127, a body that is not JSON 107")
    func badRequests() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let missing = try await client.request(.leancloud, .post, "/requestSmsCode", json: [:])
            #expect(missing.status == 400 && missing.code == 212)
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: ["mobilePhoneNumber": ""]).code == 212)
            #expect(try await client.request(.bmob, .post, "/requestSmsCode", json: [:]).code == 1)
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: ["mobilePhoneNumber": "call me"]).code == 127)
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", body: "{\"mobilePhoneNumber\":").code == 107)
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: ["mobilePhoneNumber": .string(Verification.number), "ttl": 0]).code == 1)
            #expect(try await client.request(.leancloud, .post, "/verifySmsCode/123456", json: [:]).code == 212)
            #expect(try await client.request(.parse, .post, "/requestSmsCode", json: ["mobilePhoneNumber": .string(Verification.number)]).status == 404)
            #expect(client.smsOutbox.messages.isEmpty)
        }
    }

    @Test("a failed send answers 602 (Bmob 1), leaves no usable code and does not count toward the limits")
    func failedSend() async throws {
        try await TestServer.with(accounts: Verification.accounts(), configure: { $0.smsSender = FailingSMSSender() }) { client in
            let body: JSON = ["mobilePhoneNumber": .string(Verification.number)]
            let failed = try await client.request(.leancloud, .post, "/requestSmsCode", json: body)
            #expect(failed.status == 400)
            #expect(failed.code == 602)
            #expect(try await client.store.code(purpose: "sms", target: Verification.number) == nil)
            #expect(try await client.request(.bmob, .post, "/requestSmsCode", json: body).code == 1)
            #expect(try await client.request(.leancloud, .post, "/requestSmsCode", json: body).code == 602)
        }
    }

    @Test("a named template, smsType voice, ttl, name, op and other variables shape the message")
    func templates() async throws {
        let accounts = Verification.accounts { $0.messaging.templates.namedSMS = ["promo": "{{appname}}/{{op}}/{{code}}/{{ttl}}/{{extra}}/{{none}}"] }
        try await TestServer.with(accounts: accounts) { client in
            let code = try await client.requestCode(.leancloud, "/requestSmsCode", Verification.number, extra: [
                "template": "promo", "smsType": "voice", "ttl": 5, "name": "Kiosk", "op": "pay", "extra": "x",
            ])
            let message = try #require(client.smsOutbox.last(to: Verification.number))
            #expect(message.text == "Kiosk/pay/\(code)/5/x/{{none}}")
            #expect(message.channel == "voice")
            let unknown = try await client.requestCode(.leancloud, "/requestSmsCode", Verification.otherNumber, extra: ["template": "nope"])
            #expect(client.smsOutbox.last(to: Verification.otherNumber)?.text == "[Shop] Your code for verification is \(unknown). It expires in 10 minutes. Do not share it.")
        }
    }

    @Test("of 10 parallel uses of one code exactly one succeeds, and of 10 parallel sends exactly one goes out")
    func parallelUse() async throws {
        try await TestServer.with(accounts: Verification.accounts()) { client in
            let code = try await client.requestCode(.leancloud, "/requestSmsCode", Verification.number)
            let body: JSON = ["mobilePhoneNumber": .string(Verification.number)]
            let uses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try await client.request(.leancloud, .post, "/verifySmsCode/\(code)", json: body).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(uses.filter { $0 == 200 }.count == 1)
            let other: JSON = ["mobilePhoneNumber": .string(Verification.otherNumber)]
            let sends = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for _ in 0..<10 { group.addTask { try await client.request(.leancloud, .post, "/requestSmsCode", json: other).code } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sends.filter { $0 == nil }.count == 1)
            #expect(sends.filter { $0 == 601 }.count == 9)
            #expect(client.smsOutbox.messages.filter { $0.phoneNumber == Verification.otherNumber }.count == 1)
        }
    }
}
