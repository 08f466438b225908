import Foundation
import Testing

/// The promise of the package at the repository's root: an app that adds it to use `Cirrus` resolves nothing else,
/// none of the server's packages (Hummingbird, GRDB, postgres-nio, …) in Server/.
@Suite("The SDK's package")
struct SDKPackageTests {
    @Test("a fresh app that depends only on the SDK resolves no other package")
    func appResolvesOnlyTheSDK() throws {
        let app = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-sdk-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: app) }
        try Self.manifest(sdk: Self.repositoryRoot().path).write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import Cirrus\n".write(to: app.appendingPathComponent("Sources/App/App.swift"), atomically: true, encoding: .utf8)

        _ = try Self.swift(["package", "--package-path", app.path, "resolve"])
        let tree = try Self.swift(["package", "--package-path", app.path, "show-dependencies", "--format", "json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any])
        let dependencies = try #require(root["dependencies"] as? [[String: Any]])
        #expect(dependencies.map { $0["name"] as? String } == ["cirrus"])
        #expect((dependencies.first?["dependencies"] as? [Any])?.isEmpty == true, "the SDK's package resolved: \(tree)")
        let checkouts = app.appendingPathComponent(".build/checkouts")
        let fetched = (try? FileManager.default.contentsOfDirectory(atPath: checkouts.path)) ?? []
        #expect(fetched.isEmpty, "fetched for an SDK-only app: \(fetched)")
    }

    /// An app's manifest that uses the product `Cirrus` of the package at `sdk`. An app elsewhere names it by URL;
    /// SwiftPM then reads the same manifest, the one at the repository's root.
    static func manifest(sdk: String) -> String {
        """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "App",
            platforms: [.macOS(.v12), .iOS(.v15)],
            dependencies: [.package(name: "cirrus", path: "\(sdk)")],
            targets: [.target(name: "App", dependencies: [.product(name: "Cirrus", package: "cirrus")])]
        )
        """
    }

    /// Runs `swift` with `arguments`; its standard output, or an error with its standard error.
    static func swift(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes to their ends before waiting, so that a full pipe cannot stall the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PackageCommandFailed(arguments: arguments, message: String(decoding: errorData, as: UTF8.self))
        }
        return String(decoding: outputData, as: UTF8.self)
    }

    /// The repository's root: two folders above this file's (`Tests/SDKPackageTests`).
    static func repositoryRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// A `swift package` command that failed.
struct PackageCommandFailed: Error, CustomStringConvertible {
    let arguments: [String]
    let message: String

    var description: String { "swift \(arguments.joined(separator: " ")) failed: \(message)" }
}
