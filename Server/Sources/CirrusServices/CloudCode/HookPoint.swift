/// A point where the cloud-code engine may be called around a write or an account event, named as LeanEngine names
/// it: in its metadata (`__before_save_for_Post`) and in the path it serves (`Post/beforeSave`).
package enum HookPoint: Hashable, Sendable {
    case beforeSave(String)
    case afterSave(String)
    case beforeUpdate(String)
    case afterUpdate(String)
    case beforeDelete(String)
    case afterDelete(String)
    /// Before a log-in issues a session; an error denies it.
    case onLogin
    /// After a user's phone number (`sms`) or e-mail address (`email`) is verified.
    case onVerified(Channel)
    /// Before third-party authData logs in or signs up; its result replaces the authData.
    case onAuthData

    /// How a user's contact was verified.
    package enum Channel: String, Sendable, CaseIterable {
        case sms
        case email
    }

    /// The class hooks, as the engine SDKs register them: the trigger's name and its metadata prefix.
    static let classTriggers: [(trigger: String, prefix: String, make: @Sendable (String) -> HookPoint)] = [
        ("beforeSave", "__before_save_for_", HookPoint.beforeSave), ("afterSave", "__after_save_for_", HookPoint.afterSave),
        ("beforeUpdate", "__before_update_for_", HookPoint.beforeUpdate), ("afterUpdate", "__after_update_for_", HookPoint.afterUpdate),
        ("beforeDelete", "__before_delete_for_", HookPoint.beforeDelete), ("afterDelete", "__after_delete_for_", HookPoint.afterDelete),
    ]

    /// The hook a metadata entry names, or `nil` for a function or a hook Cirrus does not call (realtime, BigQuery).
    package init?(metadataName name: String) {
        switch name {
        case "__on_login__User": self = .onLogin
        case "__on_authdata__User": self = .onAuthData
        case "__on_verified_sms": self = .onVerified(.sms)
        case "__on_verified_email": self = .onVerified(.email)
        default:
            guard let match = Self.classTriggers.first(where: { name.hasPrefix($0.prefix) }) else { return nil }
            let className = String(name.dropFirst(match.prefix.count))
            guard !className.isEmpty else { return nil }
            self = match.make(className)
        }
    }

    /// The name the engine lists in its metadata.
    package var metadataName: String {
        switch self {
        case .onLogin: return "__on_login__User"
        case .onAuthData: return "__on_authdata__User"
        case .onVerified(let channel): return "__on_verified_" + channel.rawValue
        default:
            let (className, trigger) = classTrigger!
            return Self.classTriggers.first { $0.trigger == trigger }!.prefix + className
        }
    }

    /// The engine's path below `/1.1/functions/`.
    package var path: String {
        switch self {
        case .onLogin: "_User/onLogin"
        case .onAuthData: "_User/onAuthData"
        case .onVerified(let channel): "onVerified/" + channel.rawValue
        default: classTrigger!.className + "/" + classTrigger!.trigger
        }
    }

    /// The class and trigger name (`beforeSave`) of a class hook.
    package var classTrigger: (className: String, trigger: String)? {
        switch self {
        case .beforeSave(let name): (name, "beforeSave")
        case .afterSave(let name): (name, "afterSave")
        case .beforeUpdate(let name): (name, "beforeUpdate")
        case .afterUpdate(let name): (name, "afterUpdate")
        case .beforeDelete(let name): (name, "beforeDelete")
        case .afterDelete(let name): (name, "afterDelete")
        case .onLogin, .onVerified, .onAuthData: nil
        }
    }

    /// Whether the hook runs before the write and can refuse it (10 s limit), rather than after it (3 s).
    package var isBefore: Bool {
        switch self {
        case .beforeSave, .beforeUpdate, .beforeDelete, .onLogin, .onAuthData: true
        case .afterSave, .afterUpdate, .afterDelete, .onVerified: false
        }
    }
}
