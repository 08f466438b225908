package import CirrusModel
package import CirrusStorage
import Foundation

/// The app's Parse webhooks: registered, listed, changed and removed through `/hooks` (master key), kept in the
/// database and held in memory for the write paths, which ask on every write whether a trigger is registered. Every
/// instance on a database reloads them when another announces a change (``ChangeNotice/webhooks``).
package final class WebhookRegistry: Sendable {
    let store: any StorageAdapter
    private let current = Protected<[ParseWebhook.Target: String]>([:])

    package init(store: any StorageAdapter) {
        self.store = store
    }

    /// The URL serving `target`, if one is registered.
    package func url(for target: ParseWebhook.Target) -> String? {
        current.withValue { $0[target] }
    }

    /// Whether any webhook is registered (the after-hook delivery looks at its queue more often then).
    package var isEmpty: Bool { current.withValue { $0.isEmpty } }

    /// Reads the registrations again.
    package func reload() async throws {
        var loaded: [ParseWebhook.Target: String] = [:]
        for kind in [CloudRegistration.Kind.functionWebhook, .triggerWebhook] {
            for registration in try await store.registrations(kind: kind) {
                if let hook = Self.webhook(registration) { loaded[hook.target] = hook.url }
            }
        }
        current.withValue { $0 = loaded }
    }

    // MARK: The `/hooks` API

    /// Every function webhook (`functions: true`) or trigger webhook, as parse-server lists them.
    package func list(functions: Bool) async throws -> [ParseWebhook] {
        try await store.registrations(kind: functions ? .functionWebhook : .triggerWebhook).compactMap(Self.webhook)
    }

    /// One webhook.
    /// - Throws: ``APIError`` ``APIError/Reason/webhookInvalid`` when there is none, with parse-server's message.
    package func get(_ target: ParseWebhook.Target) async throws -> ParseWebhook {
        guard let found = try await list(functions: target.isFunction).first(where: { $0.target == target }) else {
            throw Self.missing(target)
        }
        return found
    }

    /// Registers a webhook from a `POST /hooks/functions` or `/hooks/triggers` body.
    /// - Throws: ``APIError`` ``APIError/Reason/webhookInvalid``: a malformed declaration, or one already registered.
    package func create(_ body: JSON, functions: Bool) async throws -> ParseWebhook {
        let hook = try Self.declaration(body, functions: functions)
        let key = hook.registrationKey
        guard try await store.addRegistration(CloudRegistration(kind: key.kind, name: key.name, definition: Self.definition(hook))) else {
            switch hook.target {
            case .function(let name): throw APIError(.webhookInvalid, "function name: \(name) already exists")
            case .trigger(let className, let trigger): throw APIError(.webhookInvalid, "class \(className) already has trigger \(trigger.rawValue)")
            }
        }
        await changed()
        return hook
    }

    /// Changes a webhook's URL (`PUT` with `{"url"}`), or removes it (`PUT` with `{"__op": "Delete"}`).
    /// - Returns: the webhook as changed, or `nil` when it was removed.
    package func update(_ target: ParseWebhook.Target, body: JSON) async throws -> ParseWebhook? {
        if body["__op"]?.stringValue == "Delete" {
            try await delete(target)
            return nil
        }
        let hook = ParseWebhook(target: target, url: try Self.url(body["url"]))
        let key = hook.registrationKey
        guard try await store.replaceRegistration(CloudRegistration(kind: key.kind, name: key.name, definition: Self.definition(hook))) else {
            throw Self.missing(target)
        }
        await changed()
        return hook
    }

    /// Removes a webhook; removing one that is not registered changes nothing (as parse-server).
    package func delete(_ target: ParseWebhook.Target) async throws {
        let key = ParseWebhook(target: target, url: "").registrationKey
        if try await store.deleteRegistration(kind: key.kind, name: key.name) { await changed() }
    }

    /// Reloads this instance's registrations and tells the others.
    private func changed() async {
        try? await reload()
        await store.announce(.webhooks)
    }

    // MARK: Reading declarations

    /// A registration as a webhook; `nil` for one that cannot be read.
    static func webhook(_ registration: CloudRegistration) -> ParseWebhook? {
        guard let url = (try? JSONParser.parse(Array(registration.definition.utf8)))?["url"]?.stringValue else { return nil }
        switch registration.kind {
        case .functionWebhook:
            return ParseWebhook(target: .function(registration.name), url: url)
        case .triggerWebhook:
            guard let dot = registration.name.lastIndex(of: "."), let trigger = ParseTrigger(rawValue: String(registration.name[registration.name.index(after: dot)...])) else {
                return nil
            }
            return ParseWebhook(target: .trigger(className: String(registration.name[..<dot]), trigger), url: url)
        case .job:
            return nil
        }
    }

    static func definition(_ hook: ParseWebhook) -> String {
        JSONWriter.string(["url": .string(hook.url)])
    }

    /// The webhook a `POST` body declares: `{"functionName", "url"}` or `{"className", "triggerName", "url"}`.
    static func declaration(_ body: JSON, functions: Bool) throws(APIError) -> ParseWebhook {
        let url = try url(body["url"])
        if functions {
            guard let name = body["functionName"]?.stringValue else { throw invalid("functionName is required") }
            try CloudEngine.checkName(name, invalid: invalid("functionName \(name.prefix(128)) is not a function name"))
            return ParseWebhook(target: .function(name), url: url)
        }
        guard let className = body["className"]?.stringValue, let triggerName = body["triggerName"]?.stringValue else {
            throw invalid("className and triggerName are required")
        }
        do {
            try ClassName.validate(className)
        } catch {
            throw invalid(error.message)
        }
        guard let trigger = ParseTrigger(rawValue: triggerName) else {
            throw invalid("Cirrus fires the triggers \(ParseTrigger.allCases.map(\.rawValue).joined(separator: ", ")), not \(triggerName.prefix(64))")
        }
        if trigger == .beforeLogin, className != "_User" { throw invalid("beforeLogin triggers are for _User") }
        return ParseWebhook(target: .trigger(className: className, trigger), url: url)
    }

    /// An `http` or `https` URL with a host, at most 2 048 characters.
    static func url(_ value: JSON?) throws(APIError) -> String {
        guard let text = value?.stringValue else { throw invalid("url is required") }
        guard text.utf8.count <= 2_048, let components = URLComponents(string: text), ["http", "https"].contains(components.scheme?.lowercased()),
            let host = components.host, !host.isEmpty
        else { throw invalid("url must be an http or https URL") }
        return text
    }

    static func invalid(_ detail: String) -> APIError {
        APIError(.webhookInvalid, "invalid hook declaration: \(detail)")
    }

    package static func missing(_ target: ParseWebhook.Target) -> APIError {
        switch target {
        case .function(let name): APIError(.webhookInvalid, "no function named: \(name) is defined")
        case .trigger(let className, _): APIError(.webhookInvalid, "class \(className) does not exist")
        }
    }
}

extension ParseWebhook.Target {
    var isFunction: Bool {
        if case .function = self { return true }
        return false
    }
}
