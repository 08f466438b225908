import CirrusModel
import CirrusStorage

/// Parse's framing of the same calls: a function or trigger served by a registered webhook is `POST`ed to its URL with
/// `X-Parse-Webhook-Key` (the app's hook key) and a body as parse-server builds it, and answers `{"success": …}` or
/// `{"error": …}`.
extension CloudEngine {
    /// The URL of the webhook serving `hook`, if one is registered.
    package func webhookURL(for hook: HookPoint) -> String? {
        guard let webhooks, let (className, trigger) = ParseTrigger.serving(hook) else { return nil }
        return webhooks.url(for: .trigger(className: className, trigger))
    }

    /// Calls a function webhook: `{"params", "master", "user"?, "functionName"}`; its `success` is the result.
    /// - Throws: ``APIError``: the webhook's `{"code", "message"}` error unchanged, else ``APIError/Reason/cloudCodeFailed``
    ///   (141) with its message; ``APIError/Reason/engineTimeout`` past ``EngineSettings/functionTimeout``.
    func callWebhook(_ function: FunctionCall, url: String, caller: Caller) async throws(APIError) -> JSON {
        let params = function.parameters.flatMap { try? JSONParser.parse($0) } ?? [:]
        var body: [String: JSON] = ["params": params, "master": .bool(caller.isMaster), "functionName": .string(function.name)]
        if let user = await user(of: caller) { body["user"] = .object(user) }
        let result = try await exchangeWebhook(url: url, body: body, timeout: settings.functionTimeout, describing: "the function \(function.name)")
        return ["result": result]
    }

    /// Calls a trigger webhook with a hook's body (`{"object", "user"?, "original"?}`, LeanCloud's form) in Parse's form:
    /// `triggerName`, the object with its `className`, `master`; answers the object to save.
    func callTriggerWebhook(_ hook: HookPoint, url: String, body: [String: JSON], master: Bool, timeout: Duration) async throws(APIError) -> [String: JSON] {
        guard let (className, trigger) = ParseTrigger.serving(hook) else { throw Self.noEngine }
        var object = body["object"]?.objectValue ?? [:]
        object["_updatedKeys"] = nil
        object["className"] = .string(className)
        var request: [String: JSON] = ["triggerName": .string(trigger.rawValue), "object": .object(object), "master": .bool(master)]
        if case .object(var original)? = body["original"] {
            original["className"] = .string(className)
            request["original"] = .object(original)
        }
        if let user = body["user"] { request["user"] = user }
        let result = try await exchangeWebhook(url: url, body: request, timeout: timeout, describing: "the \(trigger.rawValue) trigger of \(className)")
        if case .object(let saved) = result { return saved }
        return object
    }

    /// Posts `body` to a webhook and answers its `success`.
    private func exchangeWebhook(url: String, body: [String: JSON], timeout: Duration, describing what: String) async throws(APIError) -> JSON {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Accept", "application/json")]
        if !settings.hookKey.isEmpty { headers.append(("X-Parse-Webhook-Key", settings.hookKey)) }
        let reply: EngineReply
        do {
            reply = try await transport.send(EngineRequest(method: "POST", path: "", headers: headers, body: JSONWriter.bytes(.object(body))), to: url, timeout: timeout)
        } catch {
            throw Self.failure(error, what: what, timeout: timeout, party: "The webhook")
        }
        guard case .object(let members)? = try? JSONParser.parse(reply.body) else {
            throw APIError(.cloudCodeFailed, "The webhook answered \(what) with a malformed response (not a JSON object)\(Self.excerpt(reply.body)).")
        }
        switch members["error"] {
        case nil, .null?:
            break
        case .string(let message)?:
            throw APIError(.cloudCodeFailed, message)
        case .object(let error)?:
            let message = error["message"]?.stringValue ?? error["error"]?.stringValue ?? JSONWriter.string(.object(error))
            if let code = error["code"]?.intValue { throw APIError(.cloudCodeFailed, message, engineFailure: .init(status: 400, code: Int(code))) }
            throw APIError(.cloudCodeFailed, message)
        case let other?:
            throw APIError(.cloudCodeFailed, JSONWriter.string(other))
        }
        guard let success = members["success"] else {
            guard (200..<300).contains(reply.status) else {
                throw APIError(.cloudCodeFailed, "The webhook answered \(what) with status \(reply.status) and neither success nor error.")
            }
            return .null
        }
        return success
    }

    /// The caller's user as parse-server hands it to webhooks: its fields with its session token.
    private func user(of caller: Caller) async -> [String: JSON]? {
        guard let userId = caller.userId, let store = webhooks?.store,
            let user = try? await store.fetch(className: "_User", ids: [userId]).first
        else { return nil }
        var members = user.restMembers
        members["className"] = "_User"
        if let token = caller.sessionToken { members["sessionToken"] = .string(token) }
        return members
    }
}
