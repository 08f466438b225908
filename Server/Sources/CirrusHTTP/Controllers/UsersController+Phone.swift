import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// Sign-up or log-in by SMS code, and user updates that may change the e-mail.
extension UsersController {
    /// LeanCloud's `usersByMobilePhone` and Bmob's `POST /users {mobilePhoneNumber, smsCode, …}`: the whole user with
    /// its `sessionToken`, 201 and a `Location` for a new user, 200 for an existing one.
    func signUpOrLogInByCode(_ request: APIRequest) async throws -> APIResponse {
        let loggedIn = try await verification.signUpOrLogIn(
            body: try request.objectBody(), options: objects.options(request), session: Self.sessionRequest(request), caller: request.caller
        )
        let reply = try await userReply(request, loggedIn)
        guard loggedIn.isNew else { return APIResponse(body: reply) }
        if loggedIn.user.fields["email"] != nil { await verification.emailChanged(userId: loggedIn.user.objectId) }
        return Self.created(request, loggedIn.user, reply)
    }

    /// `PUT /users/<id>` and `PUT /classes/_User/<id>`: an object update; one that sets `email` mails a new
    /// verification link when the app verifies e-mails.
    func updateUser(_ request: APIRequest) async throws -> APIResponse {
        let response = try await objects.update(request.addressing("_User"))
        if case .string? = try request.objectBody()["email"] {
            await verification.emailChanged(userId: request.parameter("objectId"))
        }
        return response
    }
}
