package import CirrusModel

/// How a push's `data` (LeanCloud's and Parse's form) becomes a notification for one Apple device.
///
/// - `data.ios`, when present, is what iOS devices get instead of `data` (LeanCloud's per-platform override); the
///   other platforms' keys (`android`, `fcm`, vendors') are never sent to Apple.
/// - A `data` that holds an `aps` object is sent as it is (a raw payload).
/// - Otherwise `alert`, `badge`, `sound`, `category`, `thread-id`, `content-available`, `mutable-content` and Apple's
///   other `aps` keys go into `aps`, the rest beside it as custom keys.
/// - `collapse-id`, `apns-priority` and `apns-push-type` become headers. Without them, a notification with an alert,
///   badge or sound is an `alert` at priority 10, one with only `content-available` a `background` at 5.
/// - A `badge` of `"Increment"` (or `{"__op": "Increment", "amount": n}`) is the device's badge after the increment.
package enum APNsPayload {
    static let apsKeys: Set<String> = [
        "alert", "badge", "sound", "category", "thread-id", "content-available", "mutable-content", "target-content-id",
        "interruption-level", "relevance-score", "filter-criteria", "stale-date", "content-state", "timestamp", "dismissal-date", "event",
    ]
    static let headerKeys: Set<String> = ["collapse-id", "apns-collapse-id", "apns-priority", "apns-push-type"]
    /// The keys of `data` that address other platforms.
    package static let platformKeys: Set<String> = ["ios", "android", "fcm", "mi", "hms", "mz", "vivo", "oppo", "wp", "_notificationChannel"]

    /// What iOS devices get of `data`: its `ios` object, or `data` without the other platforms' keys.
    package static func appleData(_ data: [String: JSON]) -> [String: JSON] {
        if case .object(let ios)? = data["ios"] { return ios }
        return data.filter { !platformKeys.contains($0.key) }
    }

    /// The amount a `badge` of `"Increment"` or `{"__op": "Increment", "amount": n}` adds, or `nil` for any other badge.
    package static func badgeIncrement(_ data: [String: JSON]) -> Int? {
        switch appleData(data)["badge"] ?? appleData(data)["aps"]?["badge"] {
        case .string(let text)? where text.lowercased() == "increment": return 1
        case .object(let operation)? where operation["__op"]?.stringValue == "Increment": return Int(operation["amount"]?.intValue ?? 1)
        default: return nil
        }
    }

    /// The notification for one device.
    /// - Parameters:
    ///   - badge: the device's badge after an increment (used where `data` asks for one).
    ///   - expiration: when APNs stops trying; `nil` for once only.
    package static func notification(
        data: [String: JSON], deviceToken: String, topic: String, badge: Int? = nil, expiration: Timestamp? = nil, sandbox: Bool = false
    ) -> APNsNotification {
        let apple = appleData(data)
        var payload: [String: JSON]
        if case .object(var aps)? = apple["aps"] {
            if let badge, badgeIncrement(data) != nil { aps["badge"] = .int(Int64(badge)) }
            payload = apple.filter { !headerKeys.contains($0.key) }
            payload["aps"] = .object(aps)
        } else {
            var aps: [String: JSON] = [:]
            payload = [:]
            for (key, value) in apple where !headerKeys.contains(key) {
                if apsKeys.contains(key) { aps[key] = value } else { payload[key] = value }
            }
            if let badge, badgeIncrement(data) != nil { aps["badge"] = .int(Int64(badge)) }
            payload["aps"] = .object(aps)
        }
        let aps = payload["aps"]?.objectValue ?? [:]
        let visible = aps["alert"] != nil || aps["badge"] != nil || aps["sound"] != nil
        let background = !visible && aps["content-available"]?.intValue == 1
        let pushType = apple["apns-push-type"]?.stringValue ?? (background ? "background" : "alert")
        let priority = apple["apns-priority"]?.intValue.map(Int.init) ?? (background ? 5 : 10)
        return APNsNotification(
            deviceToken: deviceToken, topic: topic, pushType: pushType, priority: priority, expiration: expiration,
            collapseId: (apple["collapse-id"] ?? apple["apns-collapse-id"])?.stringValue, payload: .object(payload), sandbox: sandbox
        )
    }
}
