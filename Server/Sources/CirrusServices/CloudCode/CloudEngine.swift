package import CirrusConcurrency
package import CirrusModel
package import Logging

/// The app's cloud-code engine (a LeanEngine app, in any of its languages), which Cirrus calls over HTTP: its
/// functions for clients, its hooks around writes and account events. Cirrus never runs the app's code itself.
///
/// Which hooks exist comes from the engine's own list (`GET /1.1/functions/_ops/metadatas`), read at start, every
/// ``EngineSettings/metadataRefresh`` and on demand: a write to a class without hooks costs no call. Until the list
/// has been read once, a hooked write path reads it first, and refuses the write when the engine cannot say which
/// hooks it has (a validation hook is never skipped because the engine was down when the server started).
package final class CloudEngine: Sendable {
    package let settings: EngineSettings
    let transport: any EngineTransport
    /// The app's Parse webhooks, which serve the functions and hooks they are registered for instead of the engine.
    package let webhooks: WebhookRegistry?
    let logger: Logger
    /// The hooks of the last list read; `nil` before the first successful read.
    private let known = Protected<Set<HookPoint>?>(nil)
    /// Rung when this process queues an after-hook call, so that ``AfterHookDelivery`` delivers it at once.
    package let afterHookBell = Doorbell()
    /// Rung when a scheduled job is added or changed through this process, so that ``JobScheduler`` reads the jobs at once.
    package let jobsBell = Doorbell()

    package init(settings: EngineSettings, transport: any EngineTransport, webhooks: WebhookRegistry? = nil, logger: Logger) {
        self.settings = settings
        self.transport = transport
        self.webhooks = webhooks
        self.logger = logger
    }

    /// Whether an engine is configured at all.
    package var isConfigured: Bool { settings.productionURL != nil }

    /// The hooks of the last list read, or `nil` when none has been read yet.
    package var hooks: Set<HookPoint>? { known.withValue { $0 } }

    /// Whether a Parse webhook or the engine serves `hook`: the engine's from its last list read, reading it first when
    /// there is none yet.
    /// - Throws: ``APIError`` ``APIError/Reason/hookRefused`` when no list could ever be read: the write cannot know
    ///   whether a hook must validate it.
    package func defines(_ hook: HookPoint) async throws(APIError) -> Bool {
        if webhookURL(for: hook) != nil { return true }
        guard isConfigured else { return false }
        if let hooks { return hooks.contains(hook) }
        do {
            return try await refresh().contains(hook)
        } catch {
            throw APIError(.hookRefused, "Cloud Code validation failed. Error detail : the cloud-code engine's hooks are unknown (\(error.message))")
        }
    }

    /// Reads the engine's list of functions and hooks again, and keeps its hooks.
    /// - Returns: every name the engine listed, functions included.
    /// - Throws: ``APIError`` when the engine cannot be reached or answers something else than a list.
    @discardableResult
    package func refresh() async throws(APIError) -> Set<HookPoint> {
        try await refreshNames().hooks
    }

    /// Reads the engine's list: every name it gave, and the hooks among them.
    package func refreshNames() async throws(APIError) -> (names: [String], hooks: Set<HookPoint>) {
        guard let url = settings.productionURL else { throw Self.noEngine }
        let request = EngineRequest(method: "GET", path: "/1.1/functions/_ops/metadatas", headers: credentials(master: true), body: nil)
        let reply = try await exchange(request, url: url, timeout: settings.beforeHookTimeout, describing: "the list of functions")
        guard case .array(let entries)? = reply["result"] else {
            throw APIError(.cloudCodeFailed, "The cloud-code engine's list of functions is not {\"result\": [names]}.")
        }
        let names = entries.compactMap(\.stringValue)
        let hooks = Set(names.compactMap(HookPoint.init(metadataName:)))
        let previous = known.withValue { old in
            defer { old = hooks }
            return old
        }
        if previous != hooks {
            logger.info("cloud-code hooks", metadata: ["hooks": "\(hooks.map(\.metadataName).sorted())"])
        }
        return (names, hooks)
    }

    /// Reads the list every ``EngineSettings/metadataRefresh`` until cancelled; a failed read keeps the last list.
    package func keepHooksFresh() async {
        guard isConfigured else { return }
        while !Task.isCancelled {
            do {
                try await refresh()
            } catch {
                logger.warning("cannot read the cloud-code engine's hooks; keeping the last list", metadata: ["error": "\(error.message)"])
            }
            try? await Task.sleep(for: settings.metadataRefresh)
        }
    }

    /// The headers that identify the app to the engine: the app id with the app key or, for `master`, the master key.
    func credentials(master: Bool) -> [(name: String, value: String)] {
        [
            ("X-LC-Id", settings.appId), ("X-LC-Key", master ? settings.masterKey + ",master" : settings.appKey),
            ("Content-Type", "application/json"), ("Accept", "application/json"),
        ]
    }

    /// Sends a request and reads its reply as a JSON object.
    /// - Throws: ``APIError``: the engine's own `{code, error}` (``APIError/engineFailure``) for an error status,
    ///   ``APIError/Reason/engineTimeout`` past `timeout`, ``APIError/Reason/cloudCodeFailed`` for anything else
    ///   than a JSON object.
    func exchange(_ request: EngineRequest, url: String, timeout: Duration, describing what: String) async throws(APIError) -> [String: JSON] {
        let reply: EngineReply
        do {
            reply = try await transport.send(request, to: url, timeout: timeout)
        } catch {
            throw Self.failure(error, what: what, timeout: timeout)
        }
        let json = try? JSONParser.parse(reply.body)
        guard (200..<300).contains(reply.status) else {
            if case .object(let members)? = json, let message = members["error"]?.stringValue {
                let code = members["code"]?.intValue.map(Int.init) ?? 1
                throw APIError(.cloudCodeFailed, message, engineFailure: .init(status: reply.status, code: code))
            }
            throw APIError(.cloudCodeFailed, "The cloud-code engine answered \(what) with status \(reply.status)\(Self.excerpt(reply.body)).")
        }
        guard case .object(let members)? = json else {
            throw APIError(.cloudCodeFailed, "The cloud-code engine answered \(what) without a JSON object\(Self.excerpt(reply.body)).")
        }
        return members
    }

    /// The error of a call to `party` that got no usable reply.
    static func failure(_ error: EngineTransportError, what: String, timeout: Duration, party: String = "The cloud-code engine") -> APIError {
        switch error {
        case .timedOut:
            APIError(.engineTimeout, "\(party) did not answer \(what) within \(timeout.components.seconds) s.")
        case .replyTooLarge(let limit):
            APIError(.cloudCodeFailed, "\(party)'s reply to \(what) is larger than \(limit) bytes.")
        case .redirected(let status):
            APIError(.cloudCodeFailed, "\(party) answered \(what) with a redirect (\(status)), which is not followed.")
        case .unreachable(let detail):
            APIError(.cloudCodeFailed, "\(party) could not be reached for \(what): \(detail).")
        }
    }

    /// `: <the first 100 characters of body>` with control characters dropped, or nothing for an empty body.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(100), as: UTF8.self).filter { !$0.isASCII || !($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) }
        return text.isEmpty ? "" : ": " + text
    }

    static let noEngine = APIError(.cloudFunctionNotFound, "No cloud-code engine is configured (--engine-url).")
}
