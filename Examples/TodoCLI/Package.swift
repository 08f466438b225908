// swift-tools-version:6.1
import PackageDescription

// An app on the Swift SDK, as an app depends on it: the SDK's package and nothing of the server. It names the SDK by
// path because it lives in the SDK's repository; an app elsewhere writes
// `.package(url: "https://<host>/<owner>/cirrus.git", branch: "main")` instead.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "TodoCLI",
    platforms: [.macOS(.v12)],
    products: [
        .executable(name: "TodoCLI", targets: ["TodoCLI"]),
        // The app's logic, which the server package's tests (Server/Tests/TodoCLITests) drive against a server.
        .library(name: "TodoCore", targets: ["TodoCore"]),
    ],
    dependencies: [
        .package(name: "cirrus", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(name: "TodoCore", dependencies: [.product(name: "Cirrus", package: "cirrus")], swiftSettings: swiftSettings),
        .executableTarget(
            name: "TodoCLI",
            dependencies: ["TodoCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
    ]
)
