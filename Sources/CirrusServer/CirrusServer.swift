public import CirrusHTTP
import CirrusFileStorage
import CirrusS3
import CirrusServices
public import CirrusStorage
import Foundation
public import Hummingbird
public import Logging
import ServiceLifecycle

/// A configured server: the store, the keys in use and the Hummingbird application.
public struct CirrusServer: Sendable {
    public let keys: AppKeys
    public let store: any StorageAdapter
    public let application: Application<CirrusResponder>
    /// The object changes of this server and of the others sharing its database, for subscribers.
    public let changes: ObjectChangeFeed

    /// Builds the whole server, as `cirrus serve` runs it and as tests drive it: opens the store and applies
    /// its migrations, loads or generates the keys, and wires services and endpoints.
    /// - Throws: when the data directory, keys or database cannot be opened.
    public static func build(_ configuration: ServerConfiguration, logger: Logger? = nil) async throws -> CirrusServer {
        var logger = logger ?? Logger(label: "cirrus")
        logger.logLevel = configuration.logLevel
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
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
        let transports: MessageTransports
        do {
            transports = try makeTransports(configuration, logger: logger)
        } catch {
            try? await store.close()
            throw error
        }
        let accounts = accountSettings(configuration)
        let fileSettings = FileSettings(
            publicURL: accounts.messaging.publicURL ?? "http://127.0.0.1:\(configuration.port)", maximumSize: configuration.maximumFileSize,
            signingKey: FileService.signingKey(masterKey: keys.masterKey), uploadRate: configuration.uploadRateLimit
        )
        var services = ServiceConfiguration(
            maximumObjectSize: configuration.maximumObjectSize, accounts: accounts, authDataValidator: configuration.authDataValidator
        )
        services.fileURLBase = fileSettings.publicURL + "/files"
        services.queryLimits = configuration.queryLimits
        let objects = ObjectService(store: store, schemas: schemas, configuration: services, logger: logger)
        let storage: any FileStorage
        do {
            storage = try fileStorage(configuration)
        } catch {
            try? await store.close()
            throw error
        }
        var responder = HTTPServices.makeResponder(
            objects: objects, keys: keys, maximumBodySize: configuration.maximumBodySize, logger: logger, transports: transports,
            files: FileService(objects: objects, storage: storage, settings: fileSettings)
        )
        responder.clientAddressHeader = configuration.clientAddressHeader
        let application = Application(
            responder: responder,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Cirrus"),
            services: [StoreService(store: store, logger: logger), ChangeNoticeService(objects: objects)],
            logger: logger
        )
        return CirrusServer(keys: keys, store: store, application: application, changes: objects.changes)
    }

    /// Serves until SIGINT or SIGTERM, then finishes in-flight requests and closes the store.
    public func run() async throws {
        try await application.runService()
    }

    /// The storage of file contents: the one given, an S3-compatible bucket, or the data directory.
    static func fileStorage(_ configuration: ServerConfiguration) throws -> any FileStorage {
        if let storage = configuration.fileStorage { return storage }
        if let s3 = configuration.s3 { return try S3FileStorage(configuration: s3) }
        return try LocalFileStorage(directory: configuration.dataDirectory + "/files")
    }

    private static func resolveKeys(_ configuration: ServerConfiguration, logger: Logger) throws -> AppKeys {
        let (keys, created) = try KeyStore.loadOrCreate(in: configuration.dataDirectory)
        if created {
            logger.notice("generated app keys (stored in \(configuration.dataDirectory)/\(KeyStore.fileName))", metadata: [
                "appId": "\(keys.appId)", "appKey": "\(keys.appKey)", "masterKey": "\(keys.masterKey)",
            ])
        }
        return keys
    }
}

/// Applies the change notices of the other instances sharing the database to this process's caches. It stops
/// before the store closes (services shut down in reverse order).
struct ChangeNoticeService: Service {
    let objects: ObjectService

    func run() async throws {
        for await notice in objects.store.notices().cancelOnGracefulShutdown() {
            objects.apply(notice)
        }
        // A store without other instances (SQLite) has no notices: the service still lives until the server stops,
        // since a service that returns early stops the whole server.
        try? await gracefulShutdown()
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
