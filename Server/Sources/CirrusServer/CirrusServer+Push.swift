import AsyncHTTPClient
import CirrusConcurrency
import CirrusMessaging
import CirrusServices
import Foundation
import Logging
import NIOSSL
import ServiceLifecycle

extension CirrusServer {
    /// The push settings and the senders the configuration's files make.
    /// - Throws: ``ServerStartError/invalidConfiguration(_:)`` for a key or account file that cannot be read.
    static func pushSenders(_ configuration: PushConfiguration) throws -> (settings: PushSettings, apns: (any APNsSender)?, fcm: (any FCMSender)?) {
        var settings = PushSettings()
        settings.clientPush = configuration.clientPush
        settings.apnsTopic = configuration.apnsTopic
        settings.apnsSandbox = configuration.apnsSandbox
        var apns = configuration.apnsSender
        var fcm = configuration.fcmSender
        do {
            if apns == nil, let file = configuration.apnsKeyFile {
                guard let keyId = configuration.apnsKeyId, let teamId = configuration.apnsTeamId else {
                    throw ServerStartError.invalidConfiguration("an APNs key (--apns-key-file) needs its key id and team id (--apns-key-id, --apns-team-id)")
                }
                let credentials = try APNsCredentials(keyPEM: try String(contentsOfFile: file, encoding: .utf8), keyId: keyId, teamId: teamId)
                let client = try pushClient(caFile: configuration.caFile)
                apns = configuration.apnsURL.map { APNsClient(credentials: credentials, client: client, productionURL: $0, sandboxURL: $0) }
                    ?? APNsClient(credentials: credentials, client: client)
            }
            if fcm == nil, let file = configuration.fcmServiceAccountFile {
                let account = try FCMServiceAccount(json: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                let client = try pushClient(caFile: configuration.caFile)
                fcm = configuration.fcmURL.map { FCMClient(account: account, client: client, baseURL: $0) } ?? FCMClient(account: account, client: client)
            }
        } catch let error as ServerStartError {
            throw error
        } catch {
            throw ServerStartError.invalidConfiguration("push: \(error)")
        }
        return (settings, apns, fcm)
    }

    /// An HTTP client for the push hosts: the system's roots, and the certificates of `caFile`.
    static func pushClient(caFile: String?) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile { tls.additionalTrustRoots = [.file(caFile)] }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}

/// Sends due pushes until the server stops.
struct PushDeliveryService: Service {
    let sender: PushSender

    func run() async throws {
        await cancelWhenGracefulShutdown { await sender.run() }
    }
}
