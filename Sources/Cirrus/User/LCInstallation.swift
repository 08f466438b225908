import CirrusModel
public import Foundation

/// A device installation (`_Installation`): the device a push notification goes to, and the channels it subscribed to.
///
/// An app uses its ``LCApplication/currentInstallation``, which is kept across launches:
/// ```swift
/// // application(_:didRegisterForRemoteNotificationsWithDeviceToken:)
/// let installation = LCApplication.default.currentInstallation
/// installation.set(deviceToken: deviceToken, apnsTeamId: "TEAMID1234")
/// try installation.append("channels", element: "news", unique: true)
/// try await installation.save()
/// ```
/// A new installation has ``deviceType`` set to this platform (`ios`, `macos`, `tvos`, `watchos`, `visionos`;
/// `linux`, `windows` or `android` elsewhere), ``timeZone`` to the current time zone's id and ``apnsTopic`` to the main
/// bundle's id when there is one.
///
/// As LeanCloud's SDK does, a save always posts the whole installation to `POST /1.1/installations` (also in a
/// batch): its fields, its `objectId` once it has one, and the pending operations of changed fields (`AddUnique` on
/// `channels`, for instance) in place of their values. The server updates the installation with that `objectId`,
/// `installationId` or `deviceToken`, or creates one for a new device. A save of an installation with neither a device
/// token nor an installation id is refused before any request (``LCError/InternalErrorCode/inconsistency``).
open class LCInstallation: LCObject, @unchecked Sendable {
    open override class func objectClassName() -> String { "_Installation" }

    override var endpoint: String { "/installations" }

    /// A new installation of this device (its type, time zone and APNs topic set); to save it, give it a device token
    /// (``set(deviceToken:apnsTeamId:)``) or an ``installationId``.
    public required init(application: LCApplication = .default) {
        super.init(application: application)
        refreshDeviceFields()
    }

    /// Sets what APNs needs to reach this device: its token (`Data` from the system is sent as lower-case hex) and the
    /// id of the Apple developer team whose key signs its notifications.
    public func set(deviceToken: any LCDeviceTokenConvertible, apnsTeamId: any LCStringConvertible) {
        self.deviceToken = deviceToken.lcDeviceToken
        self.apnsTeamId = apnsTeamId.lcString
    }

    /// The APNs device token (lower-case hex), or the FCM registration token of an Android device.
    public var deviceToken: LCString? {
        get { self.get("deviceToken") as? LCString }
        set { try? set("deviceToken", value: newValue) }
    }

    /// The id of the Apple developer team of the app (``set(deviceToken:apnsTeamId:)``).
    public var apnsTeamId: LCString? {
        get { self.get("apnsTeamId") as? LCString }
        set { try? set("apnsTeamId", value: newValue) }
    }

    /// The device type: `ios`, `macos`, `tvos`, `watchos`, `visionos`, `android`, …; the server routes Apple's types
    /// to APNs and `android` to FCM.
    public var deviceType: LCString? {
        get { self.get("deviceType") as? LCString }
        set { try? set("deviceType", value: newValue) }
    }

    /// The device's id for devices without a token (LeanCloud's Android installations); unique per app.
    public var installationId: LCString? {
        get { self.get("installationId") as? LCString }
        set { try? set("installationId", value: newValue) }
    }

    /// The channels the device subscribed to; a push to channels reaches the installations holding any of them.
    /// Change them with ``LCObject/append(_:element:unique:)`` (`unique: true`) and ``LCObject/remove(_:element:)``
    /// on `"channels"`, which the server applies to the stored list, or set the whole list here.
    public var channels: LCArray? {
        get { self.get("channels") as? LCArray }
        set { try? set("channels", value: newValue) }
    }

    /// The number on the app's icon; a push with `"badge": "Increment"` adds one to it on the server.
    public var badge: LCNumber? {
        get { self.get("badge") as? LCNumber }
        set { try? set("badge", value: newValue) }
    }

    /// The device's time zone id (`Asia/Shanghai`).
    public var timeZone: LCString? {
        get { self.get("timeZone") as? LCString }
        set { try? set("timeZone", value: newValue) }
    }

    /// The APNs topic, the app's bundle id.
    public var apnsTopic: LCString? {
        get { self.get("apnsTopic") as? LCString }
        set { try? set("apnsTopic", value: newValue) }
    }

    /// The push profile (a certificate or a configuration of the server) the device's notifications use.
    public var deviceProfile: LCString? {
        get { self.get("deviceProfile") as? LCString }
        set { try? set("deviceProfile", value: newValue) }
    }

    /// Sets what this device says of itself when it is missing or changed: the device type and APNs topic when
    /// absent, the time zone when it is another.
    func refreshDeviceFields() {
        if deviceType == nil { deviceType = LCString(Self.platform) }
        let zone = TimeZone.current.identifier
        if timeZone?.value != zone { timeZone = LCString(zone) }
        if apnsTopic == nil, let bundle = Bundle.main.bundleIdentifier, !bundle.isEmpty { apnsTopic = LCString(bundle) }
    }

    /// This platform's `deviceType`.
    static var platform: String {
        #if os(visionOS)
        "visionos"
        #elseif os(iOS)
        "ios"
        #elseif os(macOS)
        "macos"
        #elseif os(tvOS)
        "tvos"
        #elseif os(watchOS)
        "watchos"
        #elseif os(Android)
        "android"
        #elseif os(Windows)
        "windows"
        #else
        "linux"
        #endif
    }

    /// `POST /installations` with every field (and the objectId once known); the pending operations stand for the
    /// fields they change.
    override func saveRequest(_ operations: [String: Operation]) -> SaveRequest {
        let (objectId, properties) = lock.withLock { (state.objectId, state.properties) }
        var body = properties.filter { !($0.value is LCRelation) }.mapValues(ValueCoder.encode)
        for (key, operation) in operations { body[key] = operation.json }
        if let objectId { body["objectId"] = .string(objectId) }
        return SaveRequest(method: "POST", path: endpoint, body: .object(body))
    }

    override func validateBeforeSaving() throws {
        let token = deviceToken?.value ?? ""
        let id = installationId?.value ?? ""
        guard !token.isEmpty || !id.isEmpty else {
            throw LCError.inconsistency(
                "An installation needs a deviceToken or an installationId to be saved: call set(deviceToken:apnsTeamId:) first."
            )
        }
    }

    override func didSaveFields() {
        application.persistCurrentInstallation(ifItIs: self)
    }

    override func didFetchFields() {
        application.persistCurrentInstallation(ifItIs: self)
    }
}

/// A device token ``LCInstallation/set(deviceToken:apnsTeamId:)`` takes: the `Data` APNs hands the app (sent as
/// lower-case hex), or its text.
public protocol LCDeviceTokenConvertible {
    /// The token as the installation keeps it.
    var lcDeviceToken: LCString { get }
}

extension String: LCDeviceTokenConvertible {
    public var lcDeviceToken: LCString { LCString(self) }
}

extension LCString: LCDeviceTokenConvertible {
    public var lcDeviceToken: LCString { self }
}

extension Data: LCDeviceTokenConvertible {
    public var lcDeviceToken: LCString { LCString(lowercaseHex) }
}
