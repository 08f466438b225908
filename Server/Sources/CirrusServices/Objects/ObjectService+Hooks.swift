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
        let reply = try await engine.runBefore(hook, body: try await hookBody(object: members, caller: caller), master: caller.isMaster)
        var saved = CloudEngine.savedFields(of: reply)
        if let password { saved["password"] = password }
        return .object(saved)
    }

    /// Asks the class's `beforeUpdate` whether an update may go ahead, and answers the body to apply.
    ///
    /// The engine's `beforeUpdate` sees the changes (operations included) with `objectId` and `_updatedKeys`; what it
    /// changes is not saved (as LeanCloud). A Parse `beforeSave` webhook sees the stored object with the changes laid
    /// over it (operations as sent) and the stored object as `original`; the fields its answer changes are saved too.
    func beforeUpdate(_ className: String, objectId: String, body: JSON, skips: HookSkips, caller: Caller) async throws -> JSON {
        let hook = HookPoint.beforeUpdate(className)
        guard let engine = configuration.engine, !skips.skips(hook), try await engine.defines(hook), case .object(var members) = body else {
            return body
        }
        // A new password is listed as updated; its value stays out of the engine's sight.
        let password = className == "_User" ? members.removeValue(forKey: "password") : nil
        guard engine.webhookURL(for: hook) != nil else {
            members["_updatedKeys"] = .array((members.keys.filter { !$0.hasPrefix("_") } + (password == nil ? [] : ["password"])).sorted().map(JSON.string))
            members["objectId"] = .string(objectId)
            _ = try await engine.runBefore(hook, body: try await hookBody(object: members, caller: caller), master: caller.isMaster)
            return body
        }
        var original = try await store.fetch(className: className, ids: [objectId]).first?.restMembers ?? ["objectId": .string(objectId)]
        original["password"] = nil
        let sent = original.merging(members) { $1 }
        var request = try await hookBody(object: sent, caller: caller)
        request["original"] = .object(original)
        let reply = try await engine.runBefore(hook, body: request, master: caller.isMaster)
        guard case .object(var changes) = body else { return body }
        for (key, value) in CloudEngine.savedFields(of: reply) where sent[key] != value && key != "password" {
            changes[key] = value
        }
        return .object(changes)
    }

    /// Asks the class's `beforeDelete` about each object a delete names (those that exist), with its stored fields.
    func beforeDelete(_ className: String, objectIds: [String], skips: HookSkips, caller: Caller) async throws {
        let hook = HookPoint.beforeDelete(className)
        guard let engine = configuration.engine, !skips.skips(hook), try await engine.defines(hook) else { return }
        for object in try await store.fetch(className: className, ids: objectIds) {
            _ = try await engine.runBefore(hook, body: try await hookBody(object: object.restMembers, caller: caller), master: caller.isMaster)
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
