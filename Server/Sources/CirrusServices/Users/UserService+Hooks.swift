import CirrusModel
import CirrusStorage

/// The cloud-code engine's account hooks: `onLogin` may deny a log-in, `onAuthData` may rewrite third-party data
/// before it logs in (where an app validates third-party tokens itself, seed 001 L1502).
extension UserService {
    /// Asks `onLogin` whether `user` may log in, before any session is issued.
    /// - Throws: ``APIError`` ``APIError/Reason/hookRefused`` with the hook's message when it refuses or fails.
    func onLogin(_ user: StoredObject) async throws {
        guard let engine = objects.configuration.engine, try await engine.defines(.onLogin) else { return }
        _ = try await engine.runBefore(.onLogin, body: ["object": .object(user.restMembers)])
    }

    /// The log-in body with `authData` replaced by what `onAuthData` answered (`{"result": authData}`).
    /// - Throws: ``APIError`` ``APIError/Reason/hookRefused`` when the hook refuses, fails or answers no object.
    func onAuthData(_ body: JSON) async throws -> JSON {
        guard let engine = objects.configuration.engine, try await engine.defines(.onAuthData),
            case .object(var members) = body, let authData = members["authData"]
        else { return body }
        let reply = try await engine.runBefore(.onAuthData, body: ["authData": authData])
        guard case .object(let rewritten)? = reply["result"] else {
            throw APIError(.hookRefused, "Cloud Code validation failed. Error detail : onAuthData did not answer {\"result\": authData}.")
        }
        members["authData"] = .object(rewritten)
        return .object(members)
    }

    /// Tells `onVerified` that a user's phone number (`sms`) or e-mail address (`email`) was verified, after the change
    /// committed and without delaying the request: its failure is logged, as LeanCloud's.
    func announceVerified(_ channel: HookPoint.Channel, user: StoredObject) {
        guard let engine = objects.configuration.engine, engine.isConfigured else { return }
        let hook = HookPoint.onVerified(channel)
        Task {
            guard (try? await engine.defines(hook)) == true else { return }
            await engine.runAfter(hook, body: ["object": .object(user.restMembers)])
        }
    }
}
