import CirrusModel
import CirrusStorage

/// The cloud-code engine's before-hooks on the write paths (single writes, batches, CQL and BQL, sign-ups): called
/// after the caller's rights are checked and before anything is written; a refusal writes nothing.
extension ObjectService {
    /// The body a create saves: the client's, or what the class's `beforeSave` answered.
    /// - Throws: ``APIError`` ``APIError/Reason/hookRefused`` when the hook refuses or fails.
    /// A user's password never goes to the engine: it is kept aside and put back into what is saved.
    func beforeSave(_ className: String, body: JSON, skips: HookSkips, caller: Caller) async throws -> JSON {
        let hook = HookPoint.beforeSave(className)
        guard let engine = configuration.engine, !skips.skips(hook), try await engine.defines(hook), case .object(var members) = body else {
            return body
        }
        let password = className == "_User" ? members.removeValue(forKey: "password") : nil
        let reply = try await engine.runBefore(hook, body: try await hookBody(object: members, caller: caller))
        var saved = CloudEngine.savedFields(of: reply)
        if let password { saved["password"] = password }
        return .object(saved)
    }

    /// Asks the class's `beforeUpdate` whether an update may go ahead: it sees the changes (operations included) with
    /// `objectId` and `_updatedKeys`; what it changes is not saved (as LeanCloud).
    func beforeUpdate(_ className: String, objectId: String, body: JSON, skips: HookSkips, caller: Caller) async throws {
        let hook = HookPoint.beforeUpdate(className)
        guard let engine = configuration.engine, !skips.skips(hook), try await engine.defines(hook), case .object(var members) = body else {
            return
        }
        members["_updatedKeys"] = .array(members.keys.filter { !$0.hasPrefix("_") }.sorted().map(JSON.string))
        members["objectId"] = .string(objectId)
        // A new password is listed as updated; its value stays out of the engine's sight.
        if className == "_User" { members.removeValue(forKey: "password") }
        _ = try await engine.runBefore(hook, body: try await hookBody(object: members, caller: caller))
    }

    /// Asks the class's `beforeDelete` about each object a delete names (those that exist), with its stored fields.
    func beforeDelete(_ className: String, objectIds: [String], skips: HookSkips, caller: Caller) async throws {
        let hook = HookPoint.beforeDelete(className)
        guard let engine = configuration.engine, !skips.skips(hook), try await engine.defines(hook) else { return }
        for object in try await store.fetch(className: className, ids: objectIds) {
            _ = try await engine.runBefore(hook, body: try await hookBody(object: object.restMembers, caller: caller))
        }
    }

    /// The after-hook a write of `className` owes when the engine defines `hook` and the request does not skip it: the
    /// store queues it with the write (``AfterHookDelivery`` delivers it after the commit).
    func afterHook(_ hook: HookPoint, skips: HookSkips, caller: Caller) async throws -> AfterHookRequest? {
        guard let engine = configuration.engine, !skips.skips(hook), try await engine.defines(hook) else { return nil }
        return AfterHookRequest(hook: hook.metadataName, userId: caller.userId)
    }

    /// `{"object": …, "user": …}`: the user is the caller's, with its session token, when it has one.
    func hookBody(object: [String: JSON], caller: Caller) async throws -> [String: JSON] {
        var body: [String: JSON] = ["object": .object(object)]
        if let userId = caller.userId, let user = try await store.fetch(className: "_User", ids: [userId]).first {
            var members = user.restMembers
            if let token = caller.sessionToken { members["sessionToken"] = .string(token) }
            body["user"] = .object(members)
        }
        return body
    }
}
