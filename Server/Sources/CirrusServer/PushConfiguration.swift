package import CirrusServices

/// Push delivery: the APNs key and the FCM service account (files), and who may send.
public struct PushConfiguration: Sendable {
    /// The `.p8` key file APNs authenticates the server with (`--apns-key-file`), with its key id and team id.
    public var apnsKeyFile: String?
    public var apnsKeyId: String?
    public var apnsTeamId: String?
    /// The app's bundle id, for installations that name no `apnsTopic` (`--apns-topic`).
    public var apnsTopic: String?
    /// Apple's development environment (`--apns-environment development`) rather than production, unless a push says.
    public var apnsSandbox = false
    /// Stand-ins for Apple's hosts (a proxy, or a test server).
    public var apnsURL: String?
    /// The Firebase service-account JSON file (`--fcm-service-account`).
    public var fcmServiceAccountFile: String?
    /// A stand-in for FCM's host.
    public var fcmURL: String?
    /// A PEM file of certificates trusted besides the system's, for push hosts behind a proxy (or test servers).
    public var caFile: String?
    /// Whether clients without the master key may send pushes (LeanCloud's setting, off by default).
    public var clientPush = false
    /// How long after its device last saved it an installation expires (LeanCloud's 90 days); `nil` for never.
    public var installationLifetime: Duration? = .seconds(90 * 86_400)
    /// Senders to use instead of the ones the files configure (tests, embedders).
    package var apnsSender: (any APNsSender)?
    package var fcmSender: (any FCMSender)?

    public init() {}
}
