package import CirrusModel

/// One message for one Android device through Firebase Cloud Messaging's HTTP v1 API: the `message` object of
/// `POST /v1/projects/<project>/messages:send`, with the device's registration token.
package struct FCMNotification: Sendable, Equatable {
    package var token: String
    /// `{"title", "body"}`, shown by the system; `nil` for a data-only (silent) message.
    package var notification: [String: JSON]?
    /// Custom keys, each a string (FCM's rule: other values are sent as their JSON text).
    package var data: [String: String]
    /// `high` or `normal`.
    package var priority: String
    /// How long FCM keeps trying, in seconds; `nil` for its default (four weeks).
    package var timeToLive: Int64?
    package var collapseKey: String?

    package init(
        token: String, notification: [String: JSON]?, data: [String: String], priority: String = "high", timeToLive: Int64? = nil,
        collapseKey: String? = nil
    ) {
        self.token = token
        self.notification = notification
        self.data = data
        self.priority = priority
        self.timeToLive = timeToLive
        self.collapseKey = collapseKey
    }

    /// The `message` object FCM takes.
    package var message: JSON {
        var android: [String: JSON] = ["priority": .string(priority)]
        if let timeToLive { android["ttl"] = .string("\(timeToLive)s") }
        if let collapseKey { android["collapse_key"] = .string(collapseKey) }
        var message: [String: JSON] = ["token": .string(token), "android": .object(android)]
        if let notification { message["notification"] = .object(notification) }
        if !data.isEmpty { message["data"] = .object(data.mapValues(JSON.string)) }
        return .object(message)
    }

    /// The message for one device from a push's `data`: its `fcm` or `android` override if present (else `data` without
    /// other platforms' keys); `alert` and `title` are the notification unless `silent` is true, the rest (and
    /// `action`) go as data.
    package static func from(data: [String: JSON], token: String, timeToLive: Int64? = nil) -> FCMNotification {
        var android = data
        if case .object(let override)? = data["fcm"] ?? data["android"] {
            android = override
        } else {
            android = data.filter { !APNsPayload.platformKeys.contains($0.key) }
        }
        let silent = android["silent"]?.boolValue == true
        var notification: [String: JSON] = [:]
        if let alert = android["alert"] { notification["body"] = alert.stringValue.map(JSON.string) ?? alert["body"] ?? .string(JSONWriter.string(alert)) }
        if let title = android["title"]?.stringValue { notification["title"] = .string(title) }
        var custom: [String: String] = [:]
        for (key, value) in android where !["alert", "title", "silent", "collapse-id", "priority"].contains(key) {
            custom[key] = value.stringValue ?? JSONWriter.string(value)
        }
        return FCMNotification(
            token: token, notification: silent || notification.isEmpty ? nil : notification, data: custom,
            priority: android["priority"]?.stringValue == "normal" ? "normal" : "high", timeToLive: timeToLive,
            collapseKey: android["collapse-id"]?.stringValue
        )
    }
}

/// Sends messages to Android devices through FCM (the HTTP v1 client; anything an embedder supplies).
package protocol FCMSender: Sendable {
    func send(_ notification: FCMNotification) async -> DeliveryOutcome
}
