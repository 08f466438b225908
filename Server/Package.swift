// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // Release builds let other modules of the package inline and specialise its functions. The compiler's default
    // cross-module optimisation does that only for small `public` functions; with the modules' declarations `package`,
    // the get-by-id path cost 2 % more server CPU without this flag and costs 4 % less with it (BENCHMARKS.md,
    // "package, not public"). The package-wide form of the default (`-package-cmo`) needs library evolution.
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
]

// The server: the `cirrus` executable and `CirrusServer`, which embeds it. The model comes from the SDK's package at the
// repository's root (`..`), which an app adds by URL without resolving any of the packages below.
let model: Target.Dependency = .product(name: "CirrusModel", package: "cirrus")
let sdk: Target.Dependency = .product(name: "Cirrus", package: "cirrus")

let package = Package(
    name: "cirrus-server",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "cirrus", targets: ["cirrus"]),
        .library(name: "CirrusServer", targets: ["CirrusServer"]),
    ],
    dependencies: [
        .package(name: "cirrus", path: ".."),
        // The SDK's example app, whose logic (TodoCore) the tests drive against an in-process server.
        .package(name: "TodoCLI", path: "../Examples/TodoCLI"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // Deadlines of server work: one timer thread for every pending deadline, and a time limit for an operation.
        .target(name: "CirrusConcurrency", dependencies: [model], swiftSettings: swiftSettings),
        // Pure SQL generation for SQLite and PostgreSQL.
        .target(name: "CirrusSQL", dependencies: [model], swiftSettings: swiftSettings),
        // CQL (LeanCloud) and BQL (Bmob): parser and compilation to queries, aggregations and writes. Pure.
        .target(name: "CirrusQueryLanguage", dependencies: [model], swiftSettings: swiftSettings),
        // The storage port: the adapter protocol, write commands, storage errors.
        .target(name: "CirrusStorage", dependencies: [model], swiftSettings: swiftSettings),
        // The embedded SQLite adapter (GRDB, WAL, one writer and a reader pool).
        .target(
            name: "CirrusSQLite",
            dependencies: [
                model, "CirrusStorage", "CirrusSQL", "CirrusSQLStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The progress handler of the statement timeout.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the SQL stores share: the statements of account writes, row decoding, the table directory.
        .target(name: "CirrusSQLStore", dependencies: [model, "CirrusStorage", "CirrusSQL"], swiftSettings: swiftSettings),
        // The PostgreSQL store (postgres-nio: a connection pool, JSONB documents), for many instances on one database.
        .target(
            name: "CirrusPostgres",
            dependencies: [
                model, "CirrusConcurrency", "CirrusStorage", "CirrusSQL", "CirrusSQLStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // Policy: validation, schema, objects, batches.
        .target(
            name: "CirrusServices",
            dependencies: [
                model, "CirrusConcurrency", "CirrusStorage", "CirrusQueryLanguage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // LiveQuery: subscriptions, the dispatcher of change-log records to their events, with the subscribers' rights.
        .target(
            name: "CirrusLiveQuery",
            dependencies: [model, "CirrusStorage", "CirrusServices", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // File contents on the local disk, behind the FileStorage port.
        .target(name: "CirrusFileStorage", dependencies: ["CirrusStorage"], swiftSettings: swiftSettings),
        // File contents in an S3-compatible object store (SigV4 over async-http-client).
        .target(
            name: "CirrusS3",
            dependencies: [
                model, "CirrusConcurrency", "CirrusStorage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Outbound messaging adapters: the SMTP client (STARTTLS, AUTH) and the SMS webhook provider.
        .target(
            name: "CirrusMessaging",
            dependencies: [
                model, "CirrusConcurrency", "CirrusServices",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Moving an app in and out: `cirrus import` of LeanCloud, Parse and Bmob exports (folders or .tar.gz, streamed),
        // `cirrus export` and the background exports of `POST /1.1/exportData`, and the copy of file contents.
        .target(
            name: "CirrusMigration",
            dependencies: [
                model, "CirrusStorage", "CirrusServices",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Thin HTTP layer: dialects, authentication, routes, the one error-to-wire map.
        .target(
            name: "CirrusHTTP",
            dependencies: [
                model, "CirrusConcurrency", "CirrusStorage", "CirrusQueryLanguage", "CirrusServices", "CirrusMigration", "CirrusLiveQuery",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The HTTP/1.1 connection of the server: request-head limits, timeouts and the connection cap.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                // LiveQuery's WebSocket listener: the upgrade and the frames.
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // The console's live streams end when the server shuts down.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // `/metrics`: the server's counters in Prometheus's text format.
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        // Wires configuration to a store and the HTTP application; used by the CLI and by tests.
        .target(
            name: "CirrusServer",
            dependencies: [
                model, "CirrusStorage", "CirrusServices", "CirrusMigration", "CirrusHTTP", "CirrusLiveQuery", "CirrusSQLite", "CirrusPostgres",
                "CirrusMessaging", "CirrusFileStorage", "CirrusS3",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test support: the storage conformance suite and an in-process test server.
        .target(
            name: "CirrusTesting",
            dependencies: [
                "CirrusServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "cirrus",
            dependencies: [
                "CirrusServer", "CirrusS3", "CirrusMigration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // bench/run.sh's ceiling for the HTTP layer: Hummingbird answering a fixed JSON object.
        .executableTarget(
            name: "BenchCeiling", dependencies: [.product(name: "Hummingbird", package: "hummingbird")], swiftSettings: swiftSettings
        ),
        // The APNs and FCM stand-ins as a process, for the Python push tests and bench/push.sh.
        .executableTarget(
            name: "PushStandIns",
            dependencies: [
                "CirrusTesting", model, .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "CirrusConcurrencyTests", dependencies: ["CirrusConcurrency", model], swiftSettings: swiftSettings),
        .testTarget(name: "CirrusQueryLanguageTests", dependencies: ["CirrusQueryLanguage"], swiftSettings: swiftSettings),
        .testTarget(name: "CirrusSQLTests", dependencies: ["CirrusSQL"], swiftSettings: swiftSettings),
        .testTarget(name: "CirrusServicesTests", dependencies: ["CirrusServices", "CirrusTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "CirrusLiveQueryTests", dependencies: ["CirrusLiveQuery", "CirrusTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "CirrusSQLiteTests", dependencies: ["CirrusTesting", "CirrusSQLite", "CirrusSQLStore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CirrusPostgresTests",
            dependencies: [
                "CirrusTesting", "CirrusPostgres", "CirrusSQLStore", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "CirrusFileStorageTests", dependencies: ["CirrusFileStorage", "CirrusTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CirrusS3Tests",
            dependencies: [
                "CirrusS3", "CirrusTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // Run by the suites' moto server (MotoServer.swift), not compiled.
            exclude: ["Support/moto_serialized.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "CirrusMessagingTests", dependencies: ["CirrusMessaging", "CirrusTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "CirrusHTTPTests", dependencies: ["CirrusTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CirrusMigrationTests", dependencies: ["CirrusMigration", "CirrusTesting", "CirrusFileStorage"], swiftSettings: swiftSettings
        ),
        .testTarget(name: "CirrusLiveTests", dependencies: ["CirrusTesting", "CirrusSQLite", "CirrusSQLStore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CirrusSDKTests", dependencies: [sdk, model, "CirrusTesting"], swiftSettings: swiftSettings
        ),
        // Every Swift sample of the LeanCloud Swift guide (seed 000), as written, run against an in-process server.
        // The guide's samples bind values they never read (`let title = todo.get("title")`), which the compiler
        // warns about ([#no-usage]). They stay as written, so warnings are suppressed in this target only; without
        // the flag, [#no-usage] warnings inside the samples are the only ones.
        .testTarget(
            name: "CirrusSeedSampleTests", dependencies: [sdk, model, "CirrusTesting"],
            swiftSettings: swiftSettings + [.unsafeFlags(["-suppress-warnings"])]
        ),
        // The SDK's example app (Examples/TodoCLI, a package of its own), driven against an in-process server.
        .testTarget(
            name: "TodoCLITests", dependencies: [.product(name: "TodoCore", package: "TodoCLI"), sdk, "CirrusTesting"],
            swiftSettings: swiftSettings
        ),
    ]
)

// libFuzzer targets for the parsers that read what clients and imports send (Fuzz/; built and run by scripts/fuzz).
// Declared only when CIRRUS_FUZZ is set: libFuzzer's runtime supplies `main`, so the executable links only with
// `--sanitize fuzzer`. The internal parsers of CirrusHTTP and CirrusMigration (query strings, `Range`, tar, gzip)
// are compiled into it from their own files (symbolic links in Fuzz/Sources/Linked), so that the fuzz build does not
// compile the HTTP server's and client's dependencies (BoringSSL twice, NIO's HTTP stacks).
if Context.environment["CIRRUS_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "CirrusFuzz",
            dependencies: [
                model, "CirrusSQL", "CirrusQueryLanguage", "CirrusStorage",
                .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Fuzz/Sources", swiftSettings: swiftSettings
        )
    )
}
