import ArgumentParser
import CirrusServer

/// Push delivery's settings of `cirrus serve` (``PushConfiguration``).
struct PushOptions: ParsableArguments {
    @Option(help: "The APNs authentication key, a .p8 file (CIRRUS_APNS_KEY_FILE; default none: iOS devices are not reached).")
    var apnsKeyFile: String?

    @Option(help: "The key's id, 10 characters from Apple's developer site (CIRRUS_APNS_KEY_ID).")
    var apnsKeyId: String?

    @Option(help: "The team id the key belongs to (CIRRUS_APNS_TEAM_ID).")
    var apnsTeamId: String?

    @Option(help: "The app's bundle id, for installations without an apnsTopic (CIRRUS_APNS_TOPIC).")
    var apnsTopic: String?

    @Option(help: "production or development: Apple's environment unless a push says (prod) (CIRRUS_APNS_ENVIRONMENT; default production).")
    var apnsEnvironment: String?

    @Option(help: "A host standing in for Apple's, such as a proxy (CIRRUS_APNS_URL; default Apple's).")
    var apnsUrl: String?

    @Option(help: "The Firebase service-account JSON file (CIRRUS_FCM_SERVICE_ACCOUNT; default none: Android devices are not reached).")
    var fcmServiceAccount: String?

    @Option(help: "A host standing in for FCM's (CIRRUS_FCM_URL; default Google's).")
    var fcmUrl: String?

    @Option(help: "A PEM file of certificates the push clients trust besides the system's, for hosts behind a proxy (CIRRUS_PUSH_CA_FILE).")
    var pushCaFile: String?

    @Option(help: "Whether clients may send pushes without the master key (CIRRUS_CLIENT_PUSH; default false, as LeanCloud).")
    var clientPush: Bool?

    @Option(help: "Days after which an installation not saved again expires: it gets no pushes and is removed (CIRRUS_INSTALLATION_LIFETIME_DAYS; default 90, as LeanCloud; 0 for never).")
    var installationLifetimeDays: Int?

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for an environment other than production or development, a key without its ids, or
    ///   a URL that is not https (or http on loopback).
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        var push = configuration.push
        push.apnsKeyFile = values.string(apnsKeyFile, "CIRRUS_APNS_KEY_FILE")
        push.apnsKeyId = values.string(apnsKeyId, "CIRRUS_APNS_KEY_ID")
        push.apnsTeamId = values.string(apnsTeamId, "CIRRUS_APNS_TEAM_ID")
        push.apnsTopic = values.string(apnsTopic, "CIRRUS_APNS_TOPIC")
        push.apnsURL = values.string(apnsUrl, "CIRRUS_APNS_URL")
        push.fcmServiceAccountFile = values.string(fcmServiceAccount, "CIRRUS_FCM_SERVICE_ACCOUNT")
        push.fcmURL = values.string(fcmUrl, "CIRRUS_FCM_URL")
        push.caFile = values.string(pushCaFile, "CIRRUS_PUSH_CA_FILE")
        push.clientPush = try values.bool(clientPush, "CIRRUS_CLIENT_PUSH") ?? false
        if let days = try values.integer(installationLifetimeDays, "CIRRUS_INSTALLATION_LIFETIME_DAYS") {
            guard days >= 0 else { throw ValidationError("CIRRUS_INSTALLATION_LIFETIME_DAYS is a number of days, 0 for never, got \(days).") }
            push.installationLifetime = days > 0 ? .seconds(Int64(days) * 86_400) : nil
        }
        switch values.string(apnsEnvironment, "CIRRUS_APNS_ENVIRONMENT") {
        case nil, "production": push.apnsSandbox = false
        case "development": push.apnsSandbox = true
        case let other?: throw ValidationError("CIRRUS_APNS_ENVIRONMENT is production or development, got \(other).")
        }
        if push.apnsKeyFile != nil, push.apnsKeyId == nil || push.apnsTeamId == nil {
            throw ValidationError("An APNs key (CIRRUS_APNS_KEY_FILE) needs its key id and team id (CIRRUS_APNS_KEY_ID, CIRRUS_APNS_TEAM_ID).")
        }
        for (url, name) in [(push.apnsURL, "CIRRUS_APNS_URL"), (push.fcmURL, "CIRRUS_FCM_URL")] {
            guard let url else { continue }
            guard url.hasPrefix("https://") || url.hasPrefix("http://127.0.0.1") || url.hasPrefix("http://localhost") else {
                throw ValidationError("\(name) must be an https:// URL (http only on loopback), got \(url).")
            }
        }
        configuration.push = push
    }
}
