import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// Users: sign-up, log-in (by password or SMS code), the current user, password and token changes; `/users/<id>`
/// is `_User` through the object endpoints. Sign-ups and updates that set an e-mail trigger its verification mail.
struct UsersController: Sendable {
    let users: UserService
    let objects: ObjectsController
    let verification: VerificationService

    func register(on router: inout APIRouter) {
        router.on(.post, "users", session: false) { try await signUp($0) }
        router.on(.post, "classes/_User", session: false) { try await signUp($0) }
        router.on(.post, "login", session: false) { try await logIn($0) }
        router.on(.get, "login", dialects: [.parse, .bmob], session: false) { try await logIn($0) }
        router.on(.get, "users/me", session: false) { try await me($0) }
        router.on(.get, "users") { try await objects.find($0.addressing("_User")) }
        router.on(.get, "users/:objectId") { try await objects.get($0.addressing("_User")) }
        router.on(.put, "users/:objectId") { try await updateUser($0.addressing("_User")) }
        router.on(.put, "classes/_User/:objectId") { try await updateUser($0) }
        router.on(.delete, "users/:objectId") { try await objects.delete($0.addressing("_User")) }
        router.on(.put, "users/:objectId/refreshSessionToken", dialects: [.leancloud]) { try await refreshSessionToken($0) }
        router.on(.put, "users/:objectId/updatePassword", dialects: [.leancloud]) { try await updatePassword($0) }
        router.on(.put, "updateUserPassword/:objectId", dialects: [.bmob]) { try await updatePassword($0) }
        router.on(.get, "checkSession/:objectId", dialects: [.bmob]) { try await checkSession($0) }
    }


    /// The session a log-in in this dialect gets: Parse's revocable per-device sessions, or the stable token.
    static func sessionRequest(_ request: APIRequest) -> SessionRequest {
        request.dialect == .parse
            ? SessionRequest(kind: .revocable, installationId: request.installationId) : SessionRequest(kind: .stable)
    }

    func signUp(_ request: APIRequest) async throws -> APIResponse {
        let fields = try request.objectBody()
        if fields["authData"] != nil { return try await logInWithAuthData(request, fields) }
        if request.dialect == .bmob, fields["smsCode"] != nil { return try await signUpOrLogInByCode(request) }
        let signedUp = try await users.signUp(
            body: fields, options: objects.options(request), session: Self.sessionRequest(request), caller: request.caller
        )
        if fields["email"] != nil { await verification.emailChanged(userId: signedUp.user.objectId) }
        let user = signedUp.user
        let body: JSON
        switch request.dialect {
        case .leancloud:
            body = try await userReply(request, signedUp)
        case .parse, .bmob:
            body = [
                "objectId": .string(user.objectId), "createdAt": .string(request.dialect.format(user.createdAt)),
                "sessionToken": .string(signedUp.sessionToken),
            ]
        }
        return Self.created(request, user, body)
    }

    /// `201` with the new user's `Location`: LeanCloud's is `/1.1/classes/_User/<id>` even after `POST /users` (R#39).
    static func created(_ request: APIRequest, _ user: StoredObject, _ body: JSON) -> APIResponse {
        let location = request.dialect == .leancloud
            ? "\(request.pathPrefix)/classes/_User/\(user.objectId)" : "\(request.pathPrefix)/users/\(user.objectId)"
        return APIResponse(status: .created, body: body, headers: [(.location, location)])
    }

    /// `POST /users` with `authData`: 200 and the user for a linked account (R#107), 201 and a new user otherwise, or
    /// 211 with `failOnNotExist=true` (R#108). Both carry the whole user and its `sessionToken`.
    func logInWithAuthData(_ request: APIRequest, _ body: JSON) async throws -> APIResponse {
        let loggedIn = try await users.logIn(
            authDataBody: body, failOnNotExist: request.flag("failOnNotExist"), options: objects.options(request),
            session: Self.sessionRequest(request), caller: request.caller
        )
        let reply = try await userReply(request, loggedIn)
        guard loggedIn.isNew else { return APIResponse(body: reply) }
        return Self.created(request, loggedIn.user, reply)
    }

    func logIn(_ request: APIRequest) async throws -> APIResponse {
        let fields = try Self.logInFields(request)
        let password = fields["password"] ?? ""
        if password.isEmpty, let code = fields["smsCode"], let phone = fields["mobilePhoneNumber"] {
            let loggedIn = try await verification.logIn(phoneNumber: phone, code: code, session: Self.sessionRequest(request))
            return APIResponse(body: try await userReply(request, loggedIn))
        }
        let name: LogInName
        if let username = fields["username"], !username.isEmpty {
            name = request.dialect == .bmob ? .account(username) : .username(username)
        } else if let email = fields["email"], !email.isEmpty {
            name = .email(email)
        } else if let phone = fields["mobilePhoneNumber"], !phone.isEmpty {
            name = .mobilePhoneNumber(phone)
        } else {
            throw APIError(.usernameMissing, "A username, email or mobilePhoneNumber is required to log in.")
        }
        let loggedIn = try await users.logIn(name, password: password, session: Self.sessionRequest(request))
        return APIResponse(body: try await userReply(request, loggedIn))
    }

    /// The string fields of a log-in: the JSON body of a `POST`, the query of a `GET` (old Parse clients, bmobpy).
    static func logInFields(_ request: APIRequest) throws -> [String: String] {
        guard request.method == .post else { return request.query }
        guard case .object(let members) = try request.objectBody() else { return [:] }
        return members.compactMapValues(\.stringValue)
    }

    /// `GET /users/me`: the user of the `session_token` query parameter (which wins, as the LeanCloud SDKs send the
    /// current user's header along) or of the session header.
    func me(_ request: APIRequest) async throws -> APIResponse {
        let token = request.query["session_token"] ?? request.sessionToken ?? ""
        do {
            return APIResponse(body: try await userReply(request, try await users.user(sessionToken: token)))
        } catch let error as APIError where error.reason == .invalidSessionToken && request.dialect == .leancloud {
            // Recording R#112: a bad token on `/users/me` answers 211.
            throw APIError(.userNotFound, "Could not find user.")
        }
    }

    func refreshSessionToken(_ request: APIRequest) async throws -> APIResponse {
        let refreshed = try await users.refreshSessionToken(userId: request.parameter("objectId"), caller: request.caller)
        return APIResponse(body: tokenReply(request, refreshed))
    }

    /// LeanCloud `{"old_password","new_password"}` → `{updatedAt, objectId, sessionToken}` with a new token;
    /// Bmob `{"oldPassword","newPassword"}` → `{"msg":"ok"}`.
    func updatePassword(_ request: APIRequest) async throws -> APIResponse {
        let body = try request.objectBody()
        let isBmob = request.dialect == .bmob
        guard let old = body[isBmob ? "oldPassword" : "old_password"]?.stringValue,
            let new = body[isBmob ? "newPassword" : "new_password"]?.stringValue
        else {
            throw APIError(.passwordMissing, isBmob ? "oldPassword and newPassword are required." : "old_password and new_password are required.")
        }
        let changed = try await users.updatePassword(
            userId: request.parameter("objectId"), old: old, new: new, caller: request.caller, rotateToken: !isBmob
        )
        return APIResponse(body: isBmob ? request.dialect.acknowledgement : tokenReply(request, changed))
    }

    /// Bmob's `checkSession/<objectId>`: `{"msg":"ok"}` when the session header belongs to that user.
    func checkSession(_ request: APIRequest) async throws -> APIResponse {
        guard request.caller.userId == request.parameter("objectId") else {
            throw APIError(.invalidSessionToken, "The session token does not belong to this user.")
        }
        return APIResponse(body: Dialect.bmob.acknowledgement)
    }

    /// A user as log-in and `/users/me` return it: every visible field and `sessionToken`.
    func userReply(_ request: APIRequest, _ loggedIn: LoggedInUser) async throws -> JSON {
        let schema = try await users.objects.schema(of: "_User")
        var body = ObjectEncoder(dialect: request.dialect).encode(loggedIn.user, schema: schema).objectValue ?? [:]
        body["sessionToken"] = .string(loggedIn.sessionToken)
        return .object(body)
    }

    private func tokenReply(_ request: APIRequest, _ loggedIn: LoggedInUser) -> JSON {
        [
            "updatedAt": .string(request.dialect.format(loggedIn.user.updatedAt)), "objectId": .string(loggedIn.user.objectId),
            "sessionToken": .string(loggedIn.sessionToken),
        ]
    }
}
