package import CirrusModel

/// One notification for one Apple device, as APNs takes it: the device's token, the headers APNs reads and the JSON
/// payload (`{"aps": {…}, custom keys}`).
package struct APNsNotification: Sendable, Equatable {
    package var deviceToken: String
    /// The app's bundle id (`apns-topic`).
    package var topic: String
    /// `alert` or `background` (`apns-push-type`).
    package var pushType: String
    /// 10 (at once) or 5 (when the device sees fit) (`apns-priority`).
    package var priority: Int
    /// When APNs stops trying to deliver; `nil` for once only (`apns-expiration: 0`).
    package var expiration: Timestamp?
    /// Notifications with one collapse id replace each other on the device (`apns-collapse-id`).
    package var collapseId: String?
    package var payload: JSON
    /// Apple's development environment (`api.sandbox.push.apple.com`) rather than production.
    package var sandbox: Bool

    package init(
        deviceToken: String, topic: String, pushType: String = "alert", priority: Int = 10, expiration: Timestamp? = nil, collapseId: String? = nil,
        payload: JSON, sandbox: Bool = false
    ) {
        self.deviceToken = deviceToken
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseId = collapseId
        self.payload = payload
        self.sandbox = sandbox
    }
}

/// What a push provider said about one device.
package enum DeliveryOutcome: Sendable, Equatable {
    case delivered
    /// The token is not, or no longer, a device's (APNs `BadDeviceToken`, `Unregistered`; FCM `UNREGISTERED`): the
    /// installation holding it is removed.
    case invalidToken(String)
    /// Worth trying again later: the provider is throttling (429), failing (5xx) or out of reach.
    case retry(String)
    /// Refused for a reason another try does not change (a payload too large, a topic the key may not use).
    case failed(String)
}

/// Sends notifications to Apple devices (the APNs HTTP/2 client; anything an embedder supplies).
package protocol APNsSender: Sendable {
    func send(_ notification: APNsNotification) async -> DeliveryOutcome
}
