// Seed 000 (the LeanCloud Swift guide), section "Users": L666–L1069, and the two samples its second copy of the
// guide repeats on one line each (L1669, L1677).
//
// Each sample is copied between `// ---- seed Lx–Ly` and `// ---- end`, indented, and runs against an in-process
// Cirrus server over HTTP with `LCApplication.default` pointing at it. The user Tom of the guide (password
// `cat!@#123`, tom@leancloud.rocks, +19490008888) is signed up first where a sample needs him. Samples that check
// the code `123456` run against a server on which +19490008888 is a sandbox number with that fixed code, as the
// guide's "Sandbox Phone Number" (L769–773) describes; samples that ask for a code run against one where it is an
// ordinary number, and the test reads the SMS the server sent. L1051–1069 use `currentUser` and `githubData`,
// which the guide does not declare: the test declares them just before.
//
// Changes to the seed's text in this file:
// - L686, L687, L689 `user.set(…)` and L927, L928 `book.set(…)`: `set` throws (the guide writes `try` before it
//   everywhere else, e.g. L63) and Swift refuses a call that throws without `try`. Change: `try user.set(…)`,
//   `try book.set(…)`.
// - L968–973: the inner `switch` writes its cases as `.success:` and `.failure:`, without `case`, and their bodies
//   are comments only; Swift requires `case` and at least one statement per case. Change: `case .success:` and
//   `case .failure:`, each followed by `break` after its comment.
// - L1053–1056 and L1065–1068 (associate, disassociate): the cases' bodies are comments only. Change: `break` after
//   each comment.
// - L1669 and L1677 are L1031–1046 and L1062–1069 again, flattened onto one line each by the second copy of the
//   guide, so that their first `//` comment swallows the rest of the line; with their line breaks back they are
//   those samples exactly, run by the tests of L1031–1046 and L1062–1069.
import Cirrus
import CirrusModel
import CirrusServices
import CirrusTesting
import Foundation
import Testing

extension SeedSamples {
    @Suite("Users (seed 000 L666–1069)")
    struct Users {
        /// Signs up Tom (`cat!@#123`, tom@leancloud.rocks, +19490008888) with the async API; he becomes the current
        /// user.
        @discardableResult
        static func signUpTom(password: String = "cat!@#123", phone: String? = guidePhone) async throws -> LCUser {
            let user = LCUser()
            user.username = "Tom"
            user.password = LCString(password)
            user.email = "tom@leancloud.rocks"
            if let phone { user.mobilePhoneNumber = LCString(phone) }
            try await user.signUp()
            return user
        }

        /// Seed 000 L678–693.
        @Test("signUp creates Tom with his email, phone number and gender and makes him the current user (L680–690)")
        func signUp() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L680–690 (L686, L687, L689: `try` added)
                    // Create an instance
                    let user = LCUser()
                    // Same as user.set("username", value: "Tom")
                    user.username = LCString("Tom")
                    user.password = LCString("cat!@#123")
                    // Optional
                    try user.set("email", value: "tom@leancloud.rocks")
                    try user.set("mobilePhoneNumber", value: "+19490008888")
                    // Other fields can be set in the same way as LCObject
                    try user.set("gender", value: "secret")
                    assert(user.signUp().isSuccess)
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(server.exchanges.all.map(\.path) == ["/1.1/users"])
                let current = try #require(LCApplication.default.currentUser)
                #expect(current.username?.value == "Tom")
                #expect(current.sessionToken != nil)
                let stored = try #require(try await server.objects("_User").first)
                #expect(stored["username"]?.stringValue == "Tom")
                #expect(stored["email"]?.stringValue == "tom@leancloud.rocks")
                #expect(stored["mobilePhoneNumber"]?.stringValue == "+19490008888")
                #expect(stored["gender"]?.stringValue == "secret")
                // "We never store passwords in plaintext, nor will we ever transmit passwords back" (L693).
                #expect(stored["password"]?.stringValue == nil)
                // "If the code returns the error 202, it means that a user with the same username already exists" (L692).
                let again = LCUser()
                again.username = "Tom"
                again.password = "other"
                let error = try await #require(throws: LCError.self) { try await again.signUp() }
                #expect(error.code == 202)
            }
        }

        /// Seed 000 L694–703.
        @Test("requestVerificationCode sends a 6-digit code to the phone number (L696–703)")
        func requestSignUpCode() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L696–703
                    _ = LCSMSClient.requestVerificationCode(mobilePhoneNumber: "+19490008888") { (result) in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let code = try #require(server.live.smsOutbox.last(to: "+19490008888")?.code)
                #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            }
        }

        /// Seed 000 L704–716.
        @Test("verifyMobilePhoneNumber accepts the sandbox number's code 123456 and refuses another (L705–712)")
        func verifySignUpCode() async throws {
            try await withSeedServer(sandbox: true) { server in
                let results = try await server.run {
                    // ---- seed L705–712
                    _ = LCSMSClient.verifyMobilePhoneNumber("+19490008888", verificationCode: "123456", completion: { (result) in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    })
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(server.exchanges.all.map(\.path) == ["/1.1/verifySmsCode/123456"])
                // No SMS goes to a sandbox number (L771).
                #expect(server.live.smsOutbox.messages.isEmpty)
                let wrong = try await #require(throws: LCError.self) {
                    try await LCSMSClient.verifyMobilePhoneNumber("+19490008888", verificationCode: "654321")
                }
                #expect(wrong.code == 603)
                // L713 ("The username will be the same as mobilePhoneNumber") describes signing up with the code, which
                // LCSMSClient.verifyMobilePhoneNumber (POST /verifySmsCode, a check of the code) does not do, in
                // LeanCloud either; LCUser.signUpOrLogIn(mobilePhoneNumber:verificationCode:) does.
                let user = try await LCUser.signUpOrLogIn(mobilePhoneNumber: "+19490008888", verificationCode: "123456")
                #expect(user.username?.value == "+19490008888")
            }
        }

        /// Seed 000 L720–729.
        @Test("logIn(username:password:) logs Tom in and makes him the current user (L722–729)")
        func logInWithUsername() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                LCUser.logOut()
                let results = try await server.run {
                    // ---- seed L722–729
                    _ = LCUser.logIn(username: "Tom", password: "cat!@#123") { result in
                        switch result {
                        case .success(object: let user):
                            print(user)
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                let user = try #require(results.first?.object as? LCUser)
                #expect(user.objectId == tom.objectId)
                #expect(LCApplication.default.currentUser === user)
            }
        }

        /// Seed 000 L730–739.
        @Test("logIn(email:password:) logs Tom in (L732–739)")
        func logInWithEmail() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                LCUser.logOut()
                let results = try await server.run {
                    // ---- seed L732–739
                    _ = LCUser.logIn(email: "tom@leancloud.rocks", password: "cat!@#123") { result in
                        switch result {
                        case .success(object: let user):
                            print(user)
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect((results.first?.object as? LCUser)?.objectId == tom.objectId)
                #expect(LCApplication.default.currentUser?.objectId == tom.objectId)
            }
        }

        /// Seed 000 L740–749.
        @Test("logIn(mobilePhoneNumber:password:) logs Tom in (L742–749)")
        func logInWithPhone() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                LCUser.logOut()
                let results = try await server.run {
                    // ---- seed L742–749
                    _ = LCUser.logIn(mobilePhoneNumber: "+19490008888", password: "cat!@#123") { result in
                        switch result {
                        case .success(object: let user):
                            print(user)
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect((results.first?.object as? LCUser)?.objectId == tom.objectId)
                #expect(LCApplication.default.currentUser?.objectId == tom.objectId)
            }
        }

        /// Seed 000 L750–759.
        @Test("requestLoginVerificationCode sends a log-in code to Tom's phone (L752–759)")
        func requestLoginCode() async throws {
            try await withSeedServer { server in
                try await Self.signUpTom()
                LCUser.logOut()
                let results = try await server.run {
                    // ---- seed L752–759
                    _ = LCUser.requestLoginVerificationCode(mobilePhoneNumber: "+19490008888") { result in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let code = try #require(server.live.smsOutbox.last(to: "+19490008888")?.code)
                #expect(code.count == 6)
            }
        }

        /// Seed 000 L760–773.
        @Test("logIn(mobilePhoneNumber:verificationCode:) logs Tom in with the sandbox code (L761–768, L771)")
        func logInWithCode() async throws {
            try await withSeedServer(sandbox: true) { server in
                let tom = try await Self.signUpTom()
                LCUser.logOut()
                let results = try await server.run {
                    // ---- seed L761–768
                    _ = LCUser.logIn(mobilePhoneNumber: "+19490008888", verificationCode: "123456") { result in
                        switch result {
                        case .success(object: let user):
                            print(user)
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect((results.first?.object as? LCUser)?.objectId == tom.objectId)
                #expect(LCApplication.default.currentUser?.objectId == tom.objectId)
            }
        }

        /// Seed 000 L782–793.
        @Test("requestVerificationMail sends Tom a verification e-mail (L785–792)")
        func verificationMail() async throws {
            try await withSeedServer { server in
                try await Self.signUpTom()
                let results = try await server.run {
                    // ---- seed L785–792
                    _ = LCUser.requestVerificationMail(email: "tom@leancloud.rocks") { result in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(server.live.mailOutbox.last(to: "tom@leancloud.rocks") != nil)
            }
        }

        /// Seed 000 L794–805.
        @Test("requestVerificationCode(mobilePhoneNumber:) sends Tom a code to verify his phone (L798–805)")
        func requestPhoneVerification() async throws {
            try await withSeedServer { server in
                try await Self.signUpTom()
                let results = try await server.run {
                    // ---- seed L798–805
                    _ = LCUser.requestVerificationCode(mobilePhoneNumber: "+19490008888") { result in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(server.live.smsOutbox.last(to: "+19490008888")?.code?.count == 6)
            }
        }

        /// Seed 000 L806–816.
        @Test("verifyMobilePhoneNumber with the sandbox code sets mobilePhoneVerified to true (L807–816)")
        func verifyPhone() async throws {
            try await withSeedServer(sandbox: true) { server in
                let tom = try await Self.signUpTom()
                #expect(tom.mobilePhoneVerified?.value != true)
                let results = try await server.run {
                    // ---- seed L807–816
                    _ = LCUser.verifyMobilePhoneNumber(mobilePhoneNumber: "+19490008888", verificationCode: "123456") { result in
                        switch result {
                        case .success:
                            // mobilePhoneVerified is set to true
                            break
                        case .failure(error: let error):
                            // Verification code is incorrect
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let stored = try #require(try await server.object("_User", tom.objectId?.value ?? "-"))
                #expect(stored["mobilePhoneVerified"] == .bool(true))
            }
        }

        /// Seed 000 L817–826.
        @Test("requestVerificationCode(forUpdatingMobilePhoneNumber:) sends the current user a code at the new number (L819–826)")
        func requestPhoneChange() async throws {
            try await withSeedServer { server in
                try await Self.signUpTom(phone: "+19490007777")
                let results = try await server.run {
                    // ---- seed L819–826
                    _ = LCUser.requestVerificationCode(forUpdatingMobilePhoneNumber: "+19490008888") { result in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(server.live.smsOutbox.last(to: "+19490008888")?.code?.count == 6)
            }
        }

        /// Seed 000 L827–837.
        @Test("verifyVerificationCode(_:toUpdateMobilePhoneNumber:) changes the current user's number and marks it verified (L827–837)")
        func verifyPhoneChange() async throws {
            try await withSeedServer(sandbox: true) { server in
                let tom = try await Self.signUpTom(phone: "+19490007777")
                let results = try await server.run {
                    // ---- seed L827–837
                    _ = LCUser.verifyVerificationCode("123456", toUpdateMobilePhoneNumber:"+19490008888") { result in
                        switch result {
                        case .success:
                            // mobilePhoneNumber changes to +19490008888
                            // mobilePhoneVerified changes to true
                            break
                        case .failure(error: let error):
                            // verification code is invalid
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let stored = try #require(try await server.object("_User", tom.objectId?.value ?? "-"))
                #expect(stored["mobilePhoneNumber"]?.stringValue == "+19490008888")
                #expect(stored["mobilePhoneVerified"] == .bool(true))
            }
        }

        /// Seed 000 L838–840.
        @Test("currentUser is the user who signed up, and is kept for the next launch of the app (L839–840)")
        func currentUser() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                // ---- seed L840
                let currentUser = LCApplication.default.currentUser
                // ---- end
                #expect(currentUser === tom)
                // "the user does not need to log in each time they open the client" (L839): another app object on the
                // same storage (the next launch) reads Tom and his session token back.
                let relaunched = try LCApplication(
                    id: server.live.keys.appId, key: server.live.keys.appKey, serverURL: server.live.baseURL,
                    configuration: .init(currentUserStorage: .directory(server.directory))
                )
                #expect(relaunched.currentUser?.objectId == tom.objectId)
                #expect(relaunched.currentUser?.sessionToken == tom.sessionToken)
            }
        }

        /// Seed 000 L841–844.
        @Test("after logOut the current user is nil (L842–844)")
        func logOut() async throws {
            try await withSeedServer { server in
                try await Self.signUpTom()
                // ---- seed L842–844
                LCUser.logOut()
                // currentUser becomes nil
                let currentUser = LCApplication.default.currentUser
                // ---- end
                #expect(currentUser == nil)
            }
        }

        /// Seed 000 L845–862.
        @Test("logIn(sessionToken:) validates the token: one the server never issued is refused (L852–861)")
        func logInWithUnknownSessionToken() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L852–861
                    _ = LCUser.logIn(sessionToken: "anmlwi96s381m6ca7o7266pzf") { (result) in
                        switch result {
                        case .success(object: let user):
                            // Logged in successfully
                            print(user)
                        case .failure(error: let error):
                            // Session token is invalid
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map { $0.error?.code } == [211])
                #expect(server.exchanges.all.first?.path == "/1.1/users/me")
                #expect(LCApplication.default.currentUser == nil)
            }
        }

        /// Seed 000 L864–873.
        @Test("the current user's session token logs in again, which shows it is valid (L865–873)")
        func checkSessionToken() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                let results = try await server.run {
                    // ---- seed L865–873
                    if let sessionToken = LCApplication.default.currentUser?.sessionToken?.value {
                        _ = LCUser.logIn(sessionToken: sessionToken) { (result) in
                            if result.isSuccess {
                                // The session token is valid
                            } else {
                                // The session token is invalid
                            }
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(results.first?.object?.objectId == tom.objectId)
            }
        }

        /// Seed 000 L874–891.
        @Test("requestPasswordReset(email:) sends Tom a password-reset e-mail (L882–889)")
        func passwordResetByEmail() async throws {
            try await withSeedServer { server in
                try await Self.signUpTom()
                let results = try await server.run {
                    // ---- seed L882–889
                    _ = LCUser.requestPasswordReset(email: "tom@leancloud.rocks") { (result) in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let mail = try #require(server.live.mailOutbox.last(to: "tom@leancloud.rocks"))
                #expect(mail.subject.contains("password"))
            }
        }

        /// Seed 000 L892–906.
        @Test("requestPasswordReset(mobilePhoneNumber:) sends Tom a reset code (L897–904)")
        func passwordResetCode() async throws {
            try await withSeedServer { server in
                try await Self.signUpTom()
                let results = try await server.run {
                    // ---- seed L897–904
                    _ = LCUser.requestPasswordReset(mobilePhoneNumber: "+19490008888") { (result) in
                        switch result {
                        case .success:
                            break
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                #expect(server.live.smsOutbox.last(to: "+19490008888")?.code?.count == 6)
            }
        }

        /// Seed 000 L907–917.
        @Test("resetPassword with the sandbox code sets the new password cat!@#123 (L908–917)")
        func resetPassword() async throws {
            try await withSeedServer(sandbox: true) { server in
                try await Self.signUpTom(password: "forgotten")
                LCUser.logOut()
                let results = try await server.run {
                    // ---- seed L908–917
                    _ = LCUser.resetPassword(mobilePhoneNumber: "+19490008888", verificationCode: "123456", newPassword: "cat!@#123") { result in
                        switch result {
                        case .success:
                            // Password is updated
                            break
                        case .failure(error: let error):
                            // Verification code is incorrect
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                _ = try await LCUser.logIn(username: "Tom", password: "cat!@#123")
                let old = try await #require(throws: LCError.self) { try await LCUser.logIn(username: "Tom", password: "forgotten") }
                #expect(old.code == 210)
            }
        }

        /// Seed 000 L918–922.
        @Test("a query on _User is refused while the find permission of _User is off, as it is by default; once on it finds users (L920–921)")
        func userQuery() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                // ---- seed L920
                let userQuery = LCQuery(className: "_User")
                // ---- end
                let refused = try await #require(throws: LCError.self) { try await userQuery.find() }
                #expect(refused.code == 403)
                let (status, _) = try await server.master("PUT", "/1.1/schemas/_User", #"{"classLevelPermissions":{"find":{"*":true}}}"#)
                #expect(status == 200)
                let users = try await userQuery.find()
                #expect(users.map(\.objectId) == [tom.objectId])
                #expect(users.first is LCUser)
            }
        }

        /// Seed 000 L923–947.
        @Test("a book saved with the current user as author is found by a query on that author (L925–947)")
        func associations() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                let results = try await server.run {
                    // ---- seed L925–947 (L927, L928: `try` added)
                    let book = LCObject(className: "Book")
                    let author = LCApplication.default.currentUser
                    try book.set("title", value: "My Fifth Book")
                    try book.set("author", value: author)
                    _ = book.save { result in
                        switch result {
                        case .success:
                            // Find all the books by the same author
                            let query = LCQuery(className: "Book")
                            query.whereKey("author", .equalTo(author))
                            _ = query.find { result in
                                switch result {
                                case .success(objects: let books):
                                    // books is an array of Book objects by the same author
                                    break
                                case .failure(error: let error):
                                    print(error)
                                }
                            }
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true, true])
                let books = try #require(results.last?.objects)
                #expect(books.map { $0.get("title")?.stringValue } == ["My Fifth Book"])
                #expect((books.first?.get("author") as? LCObject)?.objectId == tom.objectId)
            }
        }

        /// Seed 000 L948–985.
        @Test("a logged-in user saves its new username; an unauthenticated copy read by query cannot be saved (L952–982)")
        func userSecurity() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                LCUser.logOut()
                let results = try await server.run {
                    // ---- seed L952–982 (L969–972 changed: see the top of the file)
                    _ = LCUser.logIn(username: "Tom", password: "cat!@#123") { result in
                        switch result {
                        case .success(object: let user):
                            // Attempt to change username
                            try! user.set("username", "Jerry")
                            // Password is hashed and an empty string will be returned
                            let password = user.get("password")
                            // This will work since the user is authenticated
                            user.save()
                            // Get the user with a non-authenticated method
                            let query = LCQuery(className: "_User")
                            _ = query.get(user.objectId) { result in
                                switch result {
                                case .success(object: let unauthenticatedUser):
                                    try! unauthenticatedUser.set("username", "Toodle")
                                    _ = unauthenticatedUser.save { result in
                                        switch result {
                                        case .success:
                                            // This will not succeed since the user is unauthenticated
                                            break
                                        case .failure:
                                            // Failure is expected
                                            break
                                        }
                                    }
                                case .failure(error: let error):
                                    print(error)
                                }
                            }
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                // The log-in, the authenticated save and the query succeed; the save of the user read by the query fails
                // (206: a user is changed only with its own session).
                print("SECURITY", results.map { $0.error.map { "\($0.code) \($0.reason ?? "")" } ?? "ok" })
                #expect(results.map { $0.error?.code } == [nil, nil, nil, 206])
                let stored = try #require(try await server.object("_User", tom.objectId?.value ?? "-"))
                #expect(stored["username"]?.stringValue == "Jerry")
                // "Password is hashed and an empty string will be returned" (L957): no password is sent back.
                #expect(server.exchanges.all.allSatisfy { $0.responseBody?["password"]?.stringValue?.isEmpty ?? true })
            }
        }

        /// Seed 000 L988–1024.
        @Test("logging in with GitHub authData signs up a new user holding that authData (L990–1007)")
        func gitHub() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L990–1007
                    let authData: [String: Any] = [
                        // Required
                        "uid": "UID",
                        "access_token": "ACCESS_TOKEN",
                        // Optional
                        "expires_in": 7200,
                        "refresh_token": "REFRESH_TOKEN",
                        "scope": "SCOPE"
                    ]
                    let user = LCUser()
                    user.logIn(authData: authData, platform: .custom("github")) { (result) in
                        switch result {
                        case .success:
                            assert(user.objectId != nil)
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let exchange = try #require(server.exchanges.all.first)
                #expect(exchange.status == 201)
                #expect(exchange.responseBody?["sessionToken"]?.stringValue?.isEmpty == false)
                #expect(exchange.responseBody?["username"]?.stringValue?.isEmpty == false)
                let stored = try #require(try await server.objects("_User").first)
                #expect(stored["authData"]?["github"]?["uid"]?.stringValue == "UID")
                #expect(LCApplication.default.currentUser?.objectId?.value == stored["objectId"]?.stringValue)
                // "If so, it returns the status code 200 OK" (L1008): the same authData again logs that user in.
                let again = LCUser()
                try await again.logIn(authData: ["uid": "UID", "access_token": "ACCESS_TOKEN"], platform: .custom("github"))
                #expect(again.objectId?.value == stored["objectId"]?.stringValue)
                #expect(server.exchanges.all.last?.status == 200)
            }
        }

        /// Seed 000 L1029–1046 (and L1669).
        @Test("signing in with Apple signs up a user whose authData holds lc_apple (L1031–1046, L1669)")
        func apple() async throws {
            try await withSeedServer { server in
                let results = try await server.run {
                    // ---- seed L1031–1046
                    let appleData: [String: Any] = [
                        // required
                        "uid": "USER IDENTIFIER",
                        // optional
                        "identity_token": "IDENTITY TOKEN",
                        "code": "AUTHORIZATION CODE"
                    ]
                    let user = LCUser()
                    user.logIn(authData: appleData, platform: .apple) { (result) in
                        switch result {
                        case .success:
                            assert(user.objectId != nil)
                        case .failure(error: let error):
                            print(error)
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let stored = try #require(try await server.objects("_User").first)
                #expect(stored["authData"]?["lc_apple"]?["uid"]?.stringValue == "USER IDENTIFIER")
            }
        }

        /// Seed 000 L1047–1058.
        @Test("associate links a GitHub account to the current user (L1051–1058)")
        func associate() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                let results = try await server.run {
                    let currentUser = LCApplication.default.currentUser!
                    let githubData: [String: Any] = ["uid": "UID", "access_token": "ACCESS_TOKEN"]
                    // ---- seed L1051–1058 (L1053–1056: `break` added)
                    currentUser.associate(authData: githubData, platform: "github") { (result) in
                        switch result {
                        case .success:
                            // linked
                            break
                        case .failure(error: let error):
                            // failed to link
                            break
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let stored = try #require(try await server.object("_User", tom.objectId?.value ?? "-"))
                #expect(stored["authData"]?["github"]?["uid"]?.stringValue == "UID")
                // The linked account now logs Tom in.
                let viaGitHub = LCUser()
                try await viaGitHub.logIn(authData: ["uid": "UID", "access_token": "ACCESS_TOKEN"], platform: "github")
                #expect(viaGitHub.objectId == tom.objectId)
            }
        }

        /// Seed 000 L1059–1069 (and L1677).
        @Test("disassociate unlinks the GitHub account of the current user (L1062–1069, L1677)")
        func disassociate() async throws {
            try await withSeedServer { server in
                let tom = try await Self.signUpTom()
                try await tom.associate(authData: ["uid": "UID", "access_token": "ACCESS_TOKEN"], platform: "github")
                let results = try await server.run {
                    let currentUser = LCApplication.default.currentUser!
                    // ---- seed L1062–1069 (L1065–1068: `break` added)
                    currentUser.disassociate(authData: "github") { (result) in
                        switch result {
                        case .success:
                            // Unlinked successfully
                            break
                        case .failure(error: let error):
                            // Failed to unlink
                            break
                        }
                    }
                    // ---- end
                }
                #expect(results.map(\.isSuccess) == [true])
                let stored = try #require(try await server.object("_User", tom.objectId?.value ?? "-"))
                #expect((stored["authData"]?["github"] ?? .null) == .null)
                #expect(tom.authData?["github"] == nil)
            }
        }
    }
}
