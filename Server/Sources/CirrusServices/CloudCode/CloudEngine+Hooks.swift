package import CirrusModel
import Logging

/// Hooks: the engine called with the hook key around writes and account events, as LeanCloud calls a LeanEngine app.
extension CloudEngine {
    /// Calls a before-hook (or `onLogin`, `onAuthData`) with `body` and answers its reply.
    /// - Throws: ``APIError`` ``APIError/Reason/hookRefused`` ("Cloud Code validation failed. Error detail : …") when
    ///   the hook refuses, fails, times out after ``EngineSettings/beforeHookTimeout`` or answers no JSON object.
    /// A hook a Parse webhook serves is called in Parse's framing (``ParseTrigger``), and answers the object its
    /// `success` holds (or the object sent, when it holds none).
    package func runBefore(_ hook: HookPoint, body: [String: JSON], master: Bool = false) async throws(APIError) -> [String: JSON] {
        do {
            if let url = webhookURL(for: hook) {
                return try await callTriggerWebhook(hook, url: url, body: body, master: master, timeout: settings.beforeHookTimeout)
            }
            return try await callHook(hook, body: body, timeout: settings.beforeHookTimeout)
        } catch {
            throw APIError(.hookRefused, "Cloud Code validation failed. Error detail : \(error.message)")
        }
    }

    /// Calls an after-hook (or `onVerified`) with `body`; a failure is logged, never reported to the writer.
    /// - Returns: whether the engine accepted the call.
    @discardableResult
    package func runAfter(_ hook: HookPoint, body: [String: JSON]) async -> Bool {
        do {
            if let url = webhookURL(for: hook) {
                _ = try await callTriggerWebhook(hook, url: url, body: body, master: false, timeout: settings.afterHookTimeout)
            } else {
                _ = try await callHook(hook, body: body, timeout: settings.afterHookTimeout)
            }
            return true
        } catch {
            logger.warning("cloud-code hook failed", metadata: ["hook": "\(hook.metadataName)", "error": "\(error.message)"])
            return false
        }
    }

    private func callHook(_ hook: HookPoint, body: [String: JSON], timeout: Duration) async throws(APIError) -> [String: JSON] {
        guard let url = settings.productionURL else { throw Self.noEngine }
        let headers = credentials(master: true) + [("X-LC-Hook-Key", settings.hookKey), ("X-LC-Prod", "1")]
        let request = EngineRequest(method: "POST", path: "/1.1/functions/" + hook.path, headers: headers, body: JSONWriter.bytes(.object(body)))
        return try await exchange(request, url: url, timeout: timeout, describing: "the hook \(hook.path)")
    }

    /// The object a `beforeSave` answered, as the fields to save: without the keys the server keeps
    /// (`objectId`, `createdAt`, `updatedAt`, `className`, `__type`) or the hook's own (`_updatedKeys`, `__`-keys).
    package static func savedFields(of reply: [String: JSON]) -> [String: JSON] {
        reply.filter { key, _ in
            !["objectId", "createdAt", "updatedAt", "className", "_updatedKeys"].contains(key) && !key.hasPrefix("__")
        }
    }
}
