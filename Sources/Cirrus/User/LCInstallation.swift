/// A device installation (`_Installation`), for push notifications.
open class LCInstallation: LCObject, @unchecked Sendable {
    open override class func objectClassName() -> String { "_Installation" }

    /// The device token.
    public var deviceToken: LCString? {
        get { self.get("deviceToken") as? LCString }
        set { try? set("deviceToken", value: newValue) }
    }

    /// The device type (`ios`, `android`, …).
    public var deviceType: LCString? {
        get { self.get("deviceType") as? LCString }
        set { try? set("deviceType", value: newValue) }
    }

    /// The channels the device subscribed to.
    public var channels: LCArray? { self.get("channels") as? LCArray }
}
