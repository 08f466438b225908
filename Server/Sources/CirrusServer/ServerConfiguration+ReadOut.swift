import CirrusHTTP
import CirrusMessaging
import CirrusModel
import CirrusS3
import Foundation

extension ServerConfiguration {
    /// What the server runs with, for the console's settings screen (`GET /dashboard/settings`): no secret in full
    /// (keys show their first four characters, URLs lose their passwords), and services as configured or not.
    func readOut(keys: AppKeys) -> JSON {
        var store: [String: JSON] = ["kind": "sqlite", "path": .string(dataDirectory + "/cirrus.sqlite")]
        if let databaseURL {
            store = ["kind": databaseURL.hasPrefix("sqlite:") ? "sqlite" : "postgres", "url": .string(Self.withoutPassword(databaseURL))]
            if let databaseReplicaURL { store["replica"] = .string(Self.withoutPassword(databaseReplicaURL)) }
        }
        var files: JSON = ["kind": "disk", "directory": .string(dataDirectory + "/files"), "maximumSize": .int(Int64(maximumFileSize))]
        if let s3 {
            files = ["kind": "s3", "endpoint": .string(s3.endpoint.absoluteString), "bucket": .string(s3.bucket), "region": .string(s3.region)]
        }
        return [
            "version": .string(CirrusVersion.current),
            "keys": [
                "appId": .string(keys.appId), "appKey": .string(Self.masked(keys.appKey)), "masterKey": .string(Self.masked(keys.masterKey)),
                "hookKey": keys.hookKey.map { .string(Self.masked($0)) } ?? .null,
            ],
            "listening": .string("\(host):\(port)"),
            "store": .object(store),
            "files": files,
            "mail": smtp.map { ["kind": "smtp", "host": .string("\($0.host):\($0.port)")] } ?? ["kind": "outbox"],
            "sms": smsWebhook.map { ["kind": "webhook", "host": .string($0.url.host ?? "")] } ?? ["kind": "outbox"],
            "liveQuery": ["enabled": .bool(liveQuery.enabled), "path": .string(liveQuery.path), "port": liveQuery.port.map { .int(Int64($0)) } ?? .null],
            "cloudCode": ["engine": engine.url.map { .string(Self.withoutPassword($0)) } ?? .null, "staging": engine.stagingURL.map { .string(Self.withoutPassword($0)) } ?? .null],
            "push": ["apns": .bool(push.apnsKeyFile != nil), "fcm": .bool(push.fcmServiceAccountFile != nil), "clientPush": .bool(push.clientPush)],
            "requestLog": ["file": requestLogFile.map(JSON.string) ?? .null],
            "metrics": ["enabled": .bool(metricsToken != nil)],
            "limits": ["maximumObjectSize": .int(Int64(maximumObjectSize)), "maximumBodySize": .int(Int64(maximumBodySize))],
        ]
    }

    /// The first four characters of a secret, then an ellipsis.
    static func masked(_ secret: String) -> String {
        String(secret.prefix(4)) + "…"
    }

    /// A URL without the password of its user part.
    static func withoutPassword(_ text: String) -> String {
        guard var parts = URLComponents(string: text), parts.password != nil else { return text }
        parts.percentEncodedPassword = "***"
        return parts.string ?? text
    }
}
