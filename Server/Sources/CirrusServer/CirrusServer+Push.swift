import AsyncHTTPClient
import CirrusConcurrency
import CirrusMessaging
import CirrusServices
import Foundation
import Logging
import NIOSSL
import ServiceLifecycle

/// The push settings and senders of a server, with the HTTP clients it made for them (which it must shut down).
struct PushSenders: Sendable {
    var settings = PushSettings()
    var apns: (any APNsSender)?
    var fcm: (any FCMSender)?
    var clients: [HTTPClient] = []

    /// Shuts down the clients made for the senders: an HTTP client must be shut down before it is released.
    func shutdown() async {
        for client in clients { try? await client.shutdown() }
    }
}

extension CirrusServer {
    /// The push settings and the senders the configuration's files make.
    /// - Throws: ``ServerStartError/invalidConfiguration(_:)`` for a key or account file that cannot be read.
    static func pushSenders(_ configuration: PushConfiguration) async throws -> PushSenders {
        var senders = PushSenders(apns: configuration.apnsSender, fcm: configuration.fcmSender)
        senders.settings.clientPush = configuration.clientPush
        senders.settings.apnsTopic = configuration.apnsTopic
        senders.settings.apnsSandbox = configuration.apnsSandbox
        senders.settings.installationLifetime = configuration.installationLifetime
        do {
            if senders.apns == nil, let file = configuration.apnsKeyFile {
                guard let keyId = configuration.apnsKeyId, let teamId = configuration.apnsTeamId else {
                    throw ServerStartError.invalidConfiguration("an APNs key (--apns-key-file) needs its key id and team id (--apns-key-id, --apns-team-id)")
                }
                let credentials = try APNsCredentials(keyPEM: try String(contentsOfFile: file, encoding: .utf8), keyId: keyId, teamId: teamId)
                let client = try pushClient(caFile: configuration.caFile)
                senders.clients.append(client)
                senders.apns = configuration.apnsURL.map { APNsClient(credentials: credentials, client: client, productionURL: $0, sandboxURL: $0) }
                    ?? APNsClient(credentials: credentials, client: client)
            }
            if senders.fcm == nil, let file = configuration.fcmServiceAccountFile {
                let account = try FCMServiceAccount(json: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                let client = try pushClient(caFile: configuration.caFile)
                senders.clients.append(client)
                senders.fcm = configuration.fcmURL.map { FCMClient(account: account, client: client, baseURL: $0) } ?? FCMClient(account: account, client: client)
            }
        } catch {
            await senders.shutdown()
            if let error = error as? ServerStartError { throw error }
            throw ServerStartError.invalidConfiguration("push: \(error)")
        }
        return senders
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

/// Sends due pushes until the server stops, then shuts down the push clients.
struct PushDeliveryService: Service {
    let sender: PushSender
    let senders: PushSenders

    func run() async throws {
        await cancelWhenGracefulShutdown { await sender.run() }
        await senders.shutdown()
    }
}
