package import CirrusModel

/// The hooks a write asks to skip: `__ignore_hooks: ["beforeSave", "afterSave", …]` in its body, as the LeanEngine
/// SDKs send for `disableBeforeHook()`/`disableAfterHook()` so that a hook saving its own object does not recurse.
///
/// Only the master key or the hook key may skip hooks: a client must not skip the app's validation.
package struct HookSkips: Sendable, Hashable {
    /// The trigger names to skip (`beforeSave`, `afterUpdate`, …).
    package var triggers: Set<String> = []

    package init(triggers: Set<String> = []) {
        self.triggers = triggers
    }

    package static let none = HookSkips()

    /// Whether the write skips `hook`.
    package func skips(_ hook: HookPoint) -> Bool {
        hook.classTrigger.map { triggers.contains($0.trigger) } ?? false
    }

    /// Removes `__ignore_hooks` from an object body and answers what it names.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidParameter`` for anything else than an array of trigger names,
    ///   ``APIError/Reason/forbidden`` when the caller holds neither the master key nor the hook key.
    package static func take(from body: inout JSON, caller: Caller) throws(APIError) -> HookSkips {
        guard case .object(var members) = body, let value = members.removeValue(forKey: "__ignore_hooks") else { return .none }
        body = .object(members)
        guard case .array(let names) = value else {
            throw APIError(.invalidParameter, "__ignore_hooks must be an array of hook names.")
        }
        var triggers: Set<String> = []
        for name in names {
            guard let trigger = name.stringValue, HookPoint.classTriggers.contains(where: { $0.trigger == trigger }) else {
                throw APIError(.invalidParameter, "__ignore_hooks names beforeSave, afterSave, beforeUpdate, afterUpdate, beforeDelete or afterDelete.")
            }
            triggers.insert(trigger)
        }
        guard caller.isMaster || caller.holdsHookKey || triggers.isEmpty else {
            throw APIError(.forbidden, "Skipping hooks (__ignore_hooks) needs the master key or the hook key (X-LC-Hook-Key).")
        }
        return HookSkips(triggers: triggers)
    }
}
