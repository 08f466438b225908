// swift-tools-version:6.1
import PackageDescription

// The Swift SDK, the package an app adds by URL: `Cirrus` (the LeanCloud Swift API over URLSession) and the model it
// shares with the server (`CirrusModel`: values, their wire codec, operations, queries, ACL). It depends on no other
// package, so an app resolves nothing else. The server is the package in Server/, which depends on this one for the
// model (docs/ARCHITECTURE.md, "Two packages").

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "cirrus",
    // URLSession's async `data(for:)` is the newest API the SDK and the model use.
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Cirrus", targets: ["Cirrus"]),
        .library(name: "CirrusModel", targets: ["CirrusModel"]),
    ],
    targets: [
        // Pure values: JSON, typed values and their wire codec, operations, query AST, ACL, errors. No I/O.
        .target(name: "CirrusModel", swiftSettings: swiftSettings),
        // The Swift SDK: the LeanCloud Swift API (LCObject, LCQuery, LCUser, LCFile, …) over URLSession.
        .target(name: "Cirrus", dependencies: ["CirrusModel"], swiftSettings: swiftSettings),
        .testTarget(name: "CirrusModelTests", dependencies: ["CirrusModel"], swiftSettings: swiftSettings),
        // That an app depending on this package resolves no other package (it runs `swift package` on a fresh app).
        .testTarget(name: "SDKPackageTests", swiftSettings: swiftSettings),
    ]
)
