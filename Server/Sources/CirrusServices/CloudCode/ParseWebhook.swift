package import CirrusModel
import CirrusStorage

/// A Parse Cloud Code webhook: a cloud function or a class trigger served at a URL the app registered
/// (`/hooks/functions`, `/hooks/triggers`), called with Parse's framing (`X-Parse-Webhook-Key`, `{success|error}`).
package struct ParseWebhook: Sendable, Hashable {
    /// What the webhook serves.
    package enum Target: Sendable, Hashable {
        case function(String)
        case trigger(className: String, ParseTrigger)
    }

    package var target: Target
    package var url: String

    package init(target: Target, url: String) {
        self.target = target
        self.url = url
    }

    /// The registration's kind and name in the store.
    var registrationKey: (kind: CloudRegistration.Kind, name: String) {
        switch target {
        case .function(let name): (.functionWebhook, name)
        case .trigger(let className, let trigger): (.triggerWebhook, className + "." + trigger.rawValue)
        }
    }

    /// As parse-server answers it: `{"functionName", "url"}` or `{"className", "triggerName", "url"}`.
    package var wire: JSON {
        switch target {
        case .function(let name): ["functionName": .string(name), "url": .string(url)]
        case .trigger(let className, let trigger): ["className": .string(className), "triggerName": .string(trigger.rawValue), "url": .string(url)]
        }
    }
}

/// The Parse triggers Cirrus fires, and the hook points each serves: Parse's `beforeSave` and `afterSave` run for
/// creates and updates alike, `beforeLogin` where LeanCloud's `onLogin` runs.
package enum ParseTrigger: String, Sendable, Hashable, CaseIterable {
    case beforeSave
    case afterSave
    case beforeDelete
    case afterDelete
    case beforeLogin

    /// The Parse trigger serving a hook point, with its class; `nil` for hooks Parse has no trigger for.
    package static func serving(_ hook: HookPoint) -> (className: String, trigger: ParseTrigger)? {
        switch hook {
        case .beforeSave(let name), .beforeUpdate(let name): (name, .beforeSave)
        case .afterSave(let name), .afterUpdate(let name): (name, .afterSave)
        case .beforeDelete(let name): (name, .beforeDelete)
        case .afterDelete(let name): (name, .afterDelete)
        case .onLogin: ("_User", .beforeLogin)
        case .onAuthData, .onVerified: nil
        }
    }
}
