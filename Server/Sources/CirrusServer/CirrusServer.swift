import CirrusConcurrency
public import CirrusHTTP
import CirrusFileStorage
import CirrusMessaging
import CirrusLiveQuery
import CirrusMigration
import CirrusS3
import CirrusServices
package import CirrusStorage
import Foundation
package import Hummingbird
public import Logging
package import NIOCore
import ServiceLifecycle
import UnixSignals

/// A configured server: the store, the keys in use and the Hummingbird application.
public struct CirrusServer: Sendable {
    public let keys: AppKeys
    package let store: any StorageAdapter
    package let application: Application<CirrusResponder>
    /// The object changes of this server and of the others sharing its database, for subscribers.
    package let changes: ChangeLog
    /// The open connections, at most the configured number (lowered to what the file limit allows).
    package let connections: ConnectionLimiter
    /// How long a graceful shutdown may take before the rest is cancelled.
    let shutdownTimeout: Duration

    /// Builds the whole server, as `cirrus serve` runs it and as tests drive it: opens the store and applies
    /// its migrations, loads or generates the keys, and wires services and endpoints.
    /// - Throws: when the data directory, keys or database cannot be opened.
    public static func build(_ configuration: ServerConfiguration, logger: Logger? = nil) async throws -> CirrusServer {
        var logger = logger ?? Logger(label: "cirrus")
        logger.logLevel = configuration.logLevel
        logger.handler = BoundedLogHandler(wrapping: logger.handler, maximumLineSize: configuration.resilience.maximumLogLineSize)
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let requestLogFile = try configuration.requestLogFile.map(Self.requestLogFile)
        let store = try StoreFactory.open(configuration, logger: logger)
        let keys: AppKeys
        do {
            // The store first: an unreachable database must fail before any keys are generated.
            try await store.prepare()
            keys = try configuration.keys ?? resolveKeys(configuration, logger: logger)
        } catch {
            try? await store.close()
            throw error
        }
        let schemas = SchemaCache(store: store)
        try await schemas.warmUp()
        await warnAboutCaseDuplicateEmails(store, logger: logger)
        let transports: MessageTransports
        do {
            transports = try makeTransports(configuration, logger: logger)
        } catch {
            try? await store.close()
            throw error
        }
        let accounts = accountSettings(configuration)
        let fileSettings = FileSettings(
            publicURL: accounts.messaging.publicURL ?? "http://127.0.0.1:\(configuration.port)", contentURL: configuration.filePublicURL,
            maximumSize: configuration.maximumFileSize,
            signingKey: FileService.signingKey(masterKey: keys.masterKey), uploadRate: configuration.uploadRateLimit
        )
        let authDataValidator = configuration.authDataValidator
            ?? AuthDataPolicy(settings: configuration.authData, client: HTTPProviderClient(), clock: accounts.clock)
        var services = ServiceConfiguration(
            maximumObjectSize: configuration.maximumObjectSize, accounts: accounts, authDataValidator: authDataValidator
        )
        services.fileURLBase = fileSettings.filesBase
        services.queryLimits = configuration.queryLimits
        let engine: CloudEngine
        do {
            engine = try await Self.engine(configuration, keys: keys, store: store, logger: logger)
            services.engine = engine
        } catch {
            try? await store.close()
            throw error
        }
        let objects = ObjectService(store: store, schemas: schemas, configuration: services, logger: logger)
        let storage: any FileStorage
        do {
            storage = try fileStorage(configuration)
        } catch {
            try? await store.close()
            throw error
        }
        let senders: PushSenders
        do {
            senders = try await Self.pushSenders(configuration.push)
        } catch {
            try? await store.close()
            throw error
        }
        let pushBell = Doorbell()
        let app = Self.services(
            objects: objects, files: FileService(objects: objects, storage: storage, settings: fileSettings), transports: transports,
            push: PushService(store: store, settings: senders.settings, bell: pushBell), logger: logger
        )
        let pushSender = PushSender(objects: objects, apns: senders.apns, fcm: senders.fcm, settings: senders.settings, bell: pushBell, logger: logger)
        var responder = HTTPServices.makeResponder(
            app, keys: keys, maximumBodySize: configuration.maximumBodySize, liveQuery: configuration.liveQuery.enabled,
            dashboard: configuration.dashboard ? DashboardAssets(directory: configuration.dashboardDirectory) : nil,
            requestLogFile: requestLogFile, logger: logger
        )
        responder.clientAddressHeader = configuration.clientAddressHeader
        responder.describeSettings(configuration.readOut(keys: keys))
        responder.serveImports(ImportJobs(
            store: store, dataDirectory: configuration.dataDirectory, fileURLBase: fileSettings.filesBase, fileProvider: storage.name, logger: logger
        ))
        responder.serveChanges(objects.changes, lifetime: configuration.dashboardLiveLifetime)
        responder.transport = configuration.transport
        let connections = connectionLimiter(configuration.transport, logger: logger)
        responder.metrics = metrics(
            configuration, store: store, connections: connections, liveQuery: configuration.liveQuery.enabled ? app.liveQuery : nil,
            changes: objects.changes
        )
        let realtime: RealtimeListener?
        do {
            realtime = try await startRealtime(configuration, liveQuery: app.liveQuery, keys: keys, limiter: connections, logger: logger)
        } catch {
            await senders.shutdown()
            try? await store.close()
            throw error
        }
        if let realtime {
            responder.rtmRoute = configuration.liveQuery.socketURL(
                apiURL: accounts.messaging.publicURL ?? "http://\(configuration.host):\(configuration.port)", listenerPort: realtime.port
            )
        }
        let settings = configuration.transport
        let application = Application(
            responder: responder,
            server: CirrusHTTPChannel.server(settings: settings, limiter: connections),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Cirrus"),
            services: (requestLogFile.map { [RequestLogService(file: $0)] as [any Service] } ?? []) + [
                StoreService(store: store, logger: logger), ChangeNoticeService(objects: objects, liveQuery: app.liveQuery, webhooks: engine.webhooks),
                LiveQueryDispatchService(
                    dispatcher: LiveDispatcher(service: app.liveQuery), listener: realtime,
                    history: (configuration.liveQuery.replayLimit, configuration.changeLogRetention)
                ),
                CloudCodeService(engine: engine, store: store, logger: logger),
                PushDeliveryService(sender: pushSender, senders: senders),
            ],
            onServerRunning: { [logger] in await CirrusHTTPChannel.listening($0, limiter: connections, logger: logger) },
            logger: logger
        )
        return CirrusServer(
            keys: keys, store: store, application: application, changes: objects.changes, connections: connections,
            shutdownTimeout: configuration.resilience.shutdownTimeout
        )
    }

    /// The request log file at `path`, written to once to check that it can be.
    /// - Throws: ``ServerStartError/invalidConfiguration(_:)`` when it cannot.
    static func requestLogFile(_ path: String) throws -> RequestLogFile {
        let file = RequestLogFile(path: path)
        do {
            try file.prepare()
        } catch {
            throw ServerStartError.invalidConfiguration("The request log file \(path) cannot be written (\(error.localizedDescription)).")
        }
        return file
    }

    /// The app's cloud code: the LeanEngine app, when one is configured, and the Parse webhooks registered in the store.
    /// - Throws: ``ServerStartError/invalidConfiguration(_:)`` for an engine without a hook key.
    static func engine(_ configuration: ServerConfiguration, keys: AppKeys, store: any StorageAdapter, logger: Logger) async throws -> CloudEngine {
        let url = configuration.engine.url
        if let url, (keys.hookKey ?? "").isEmpty {
            throw ServerStartError.invalidConfiguration("A cloud-code engine (\(url)) needs a hook key: give it with the app keys (--hook-key).")
        }
        var settings = EngineSettings(
            productionURL: url, stagingURL: configuration.engine.stagingURL, appId: keys.appId, appKey: keys.appKey, masterKey: keys.masterKey,
            hookKey: keys.hookKey ?? ""
        )
        settings.metadataRefresh = .seconds(configuration.engine.metadataRefreshSeconds)
        settings.functionTimeout = .seconds(configuration.engine.functionTimeoutSeconds)
        settings.beforeHookTimeout = .seconds(configuration.engine.hookTimeoutSeconds)
        let webhooks = WebhookRegistry(store: store)
        try await webhooks.reload()
        if !webhooks.isEmpty, settings.hookKey.isEmpty {
            logger.warning("Parse webhooks are registered but no hook key is set: their calls carry no X-Parse-Webhook-Key (--hook-key)")
        }
        return CloudEngine(settings: settings, transport: HTTPEngineTransport(), webhooks: webhooks, logger: logger)
    }

    /// LiveQuery's WebSocket listener, when LiveQuery is on: on its own port (the API's plus one unless configured).
    static func startRealtime(
        _ configuration: ServerConfiguration, liveQuery: LiveQueryService, keys: AppKeys, limiter: ConnectionLimiter, logger: Logger
    ) async throws -> RealtimeListener? {
        let live = configuration.liveQuery
        guard live.enabled else { return nil }
        let endpoint = WebSocketEndpoint.first(of: [
            RTMEndpoint.webSocket(liveQuery: liveQuery, appId: keys.appId, settings: live, logger: logger),
            ParseLiveEndpoint.webSocket(liveQuery: liveQuery, keys: (keys.appId, keys.appKey, keys.masterKey), settings: live, logger: logger),
            BmobRealtimeEndpoint.webSocket(liveQuery: liveQuery, appId: keys.appId, settings: live, logger: logger),
        ])
        let port = live.port ?? (configuration.port == 0 ? 0 : configuration.port + 1)
        do {
            return try await RealtimeListener.start(host: configuration.host, port: port, endpoint: endpoint, limiter: limiter, logger: logger)
        } catch {
            throw ServerStartError.unavailableAddress("LiveQuery's WebSocket cannot listen on \(configuration.host):\(port) (\(error)); choose another port with --livequery-port, or turn LiveQuery off with --livequery false")
        }
    }

    /// Every service of the app, each built once: the one composition root.
    static func services(
        objects: ObjectService, files: FileService, transports: MessageTransports, push: PushService, logger: Logger
    ) -> AppServices {
        let users = UserService(objects: objects)
        let messaging = objects.configuration.accounts.messaging
        let exports = ExportJobs(
            store: objects.store, storage: files.storage, signingKey: files.settings.signingKey, publicURL: files.settings.publicURL,
            mail: transports.mail, mailFrom: messaging.emailFrom, appName: messaging.appName, logger: logger
        )
        return AppServices(
            objects: objects, users: users, verification: VerificationService(users: users, transports: transports), files: files,
            cloudQuery: CloudQueryService(objects: objects), schema: SchemaService(objects: objects), exports: exports,
            liveQuery: LiveQueryService(users: users, logger: logger), push: push
        )
    }

    /// The application, also calling `onServerRunning` with the listening channel once it listens (tests wait for it).
    package func application(onServerRunning: @escaping @Sendable (any Channel) async -> Void) -> Application<CirrusResponder> {
        let (logger, connections) = (application.logger, connections)
        return Application(
            responder: application.responder, server: application.server, configuration: application.configuration,
            services: application.services,
            onServerRunning: { channel in
                await CirrusHTTPChannel.listening(channel, limiter: connections, logger: logger)
                await onServerRunning(channel)
            },
            logger: logger
        )
    }

    /// Serves until SIGINT or SIGTERM, then finishes in-flight requests and closes the store, within the shutdown
    /// timeout: what is still running then is cancelled, and a second later the process exits whatever is left.
    /// The signals are those ``TerminationSignals`` caught, when it was installed (as `cirrus serve` does first thing),
    /// else the service group's own.
    public func run() async throws {
        DispatchTimers.prime()
        let caught = TerminationSignals.isInstalled
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: application), .init(service: ShutdownDeadline(timeout: shutdownTimeout, logger: application.logger))],
            gracefulShutdownSignals: caught ? [] : [.sigterm, .sigint], logger: application.logger
        )
        configuration.maximumGracefulShutdownDuration = shutdownTimeout
        let group = ServiceGroup(configuration: configuration)
        if caught {
            TerminationSignals.markServing()
            Task {
                await TerminationSignals.next()
                await group.triggerGracefulShutdown()
            }
        }
        try await group.run()
    }

    /// The connection limiter for `settings`, its limit lowered to what the file-descriptor limit (raised to the hard
    /// limit first) leaves room for.
    static func connectionLimiter(_ settings: TransportSettings, logger: Logger) -> ConnectionLimiter {
        let files = FileDescriptorLimit.raise()
        if files.after > files.before {
            logger.info("file descriptor limit raised", metadata: ["from": "\(files.before)", "to": "\(files.after)"])
        }
        let allowed = files.after > 0 ? FileDescriptorLimit.connections(allowedBy: files.after) : settings.maximumConnections
        if allowed < settings.maximumConnections {
            logger.warning("connection limit lowered to what the file descriptor limit allows", metadata: [
                "configured": "\(settings.maximumConnections)", "limit": "\(allowed)", "files": "\(files.after)",
            ])
        }
        return ConnectionLimiter(limit: min(settings.maximumConnections, allowed))
    }

    /// The storage of file contents: the one given, an S3-compatible bucket, or the data directory.
    static func fileStorage(_ configuration: ServerConfiguration) throws -> any FileStorage {
        if let storage = configuration.fileStorage { return storage }
        if let s3 = configuration.s3 { return try S3FileStorage(configuration: s3) }
        return try LocalFileStorage(directory: configuration.dataDirectory + "/files")
    }

    private static func resolveKeys(_ configuration: ServerConfiguration, logger: Logger) throws -> AppKeys {
        let (keys, created) = try KeyStore.loadOrCreate(in: configuration.dataDirectory)
        let file = "\(configuration.dataDirectory)/\(KeyStore.fileName)"
        switch created {
        case .all?:
            logger.notice("generated app keys (stored in \(file))", metadata: [
                "appId": "\(keys.appId)", "appKey": "\(keys.appKey)", "masterKey": "\(keys.masterKey)", "hookKey": "\(keys.hookKey ?? "")",
            ])
        case .hookKey?:
            logger.notice("generated the hook key (stored in \(file))", metadata: ["hookKey": "\(keys.hookKey ?? "")"])
        case nil:
            break
        }
        return keys
    }
}

/// Writes the request log file until the server stops (listed first, so it stops last and writes the requests
/// answered during the shutdown).
struct RequestLogService: Service {
    let file: RequestLogFile

    func run() async throws {
        await cancelWhenGracefulShutdown { await file.run() }
    }
}

/// Applies the change notices of the other instances sharing the database to this process's caches. It stops
/// before the store closes (services shut down in reverse order).
struct ChangeNoticeService: Service {
    let objects: ObjectService
    let liveQuery: LiveQueryService
    let webhooks: WebhookRegistry?

    func run() async throws {
        for await notice in objects.store.notices().cancelOnGracefulShutdown() {
            objects.apply(notice)
            await liveQuery.apply(notice)
            if notice == .webhooks || notice == .everything { try? await webhooks?.reload() }
        }
        // A store without other instances (SQLite) has no notices: the service still lives until the server stops,
        // since a service that returns early stops the whole server.
        try? await gracefulShutdown()
    }
}

/// Turns the change log into LiveQuery events until the server stops, then closes LiveQuery's listener.
/// Cloud code's background work until the server stops: reads the engine's list of hooks at start and every refresh
/// interval, delivers the queued after-hook calls, and runs the scheduled jobs.
struct CloudCodeService: Service {
    let engine: CloudEngine
    let store: any StorageAdapter
    let logger: Logger

    func run() async throws {
        let delivery = AfterHookDelivery(engine: engine, store: store, logger: logger)
        let jobs = JobScheduler(engine: engine, store: store, logger: logger)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await engine.keepHooksFresh() }
                group.addTask { await delivery.run() }
                group.addTask { await jobs.run() }
            }
        }
    }
}

struct LiveQueryDispatchService: Service {
    let dispatcher: LiveDispatcher
    let listener: RealtimeListener?
    /// The change-log records kept for clients that resume.
    let history: (limit: Int, retention: Duration)

    func run() async throws {
        guard let listener else {
            // LiveQuery is off: nothing to dispatch (a service must run until the shutdown).
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown { await dispatcher.run(history: history) }
        await listener.stop()
        await dispatcher.service.goAway()
    }
}

/// The last resort of a shutdown: once one begins (it is told first, being the last service), the process exits one
/// second after the shutdown timeout if it is still running, whatever it is waiting for.
struct ShutdownDeadline: Service {
    let timeout: Duration
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        let (seconds, attoseconds) = timeout.components
        let delay = Double(seconds) + Double(attoseconds) / 1e18 + 1
        let logger = logger
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            logger.critical("the shutdown did not finish within its timeout; exiting", metadata: ["timeout": "\(timeout)"])
            exit(1)
        }
    }
}

/// Closes the store once the HTTP server has finished its in-flight requests.
struct StoreService: Service {
    let store: any StorageAdapter
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        try await store.close()
        logger.info("store closed")
    }
}
