import Foundation

/// Where the `cirrus` executable under test lives.
///
/// `CIRRUS_BIN` wins; otherwise the build directory of this test run (what `swift build --show-bin-path` prints),
/// then `.build/debug/cirrus` under the package root.
enum CirrusExecutable {
    /// The path of the executable.
    /// - Throws: `LiveTestError.missingExecutable` when none of the candidates exists.
    static func path() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["CIRRUS_BIN"], !explicit.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: explicit) else {
                throw LiveTestError.missingExecutable("CIRRUS_BIN is set to \(explicit), which is not an executable file.")
            }
            return explicit
        }
        let candidates = [buildDirectoryOfThisRun(), packageRoot().appendingPathComponent(".build/debug")]
            .compactMap { $0?.appendingPathComponent("cirrus").path }
        if let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) { return found }
        throw LiveTestError.missingExecutable(
            "The cirrus executable was not found (looked at \(candidates.joined(separator: ", "))). "
                + "Build it with `swift build --product cirrus` (or `swift build --build-tests`), or set CIRRUS_BIN."
        )
    }

    /// The directory holding the running test executable, which SwiftPM builds next to `cirrus`.
    private static func buildDirectoryOfThisRun() -> URL? {
        guard let executable = Bundle.main.executableURL else { return nil }
        var directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        // On Apple platforms the tests run inside `<bin>/cirrusPackageTests.xctest/Contents/MacOS`.
        while directory.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
            directory.deleteLastPathComponent()
        }
        return directory
    }

    /// The server package's root (`Server`): three levels above this file's folder
    /// (`Server/Tests/CirrusLiveTests/Support`).
    private static func packageRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// Why a live test could not run its server.
struct LiveTestError: Error, CustomStringConvertible {
    let description: String

    static func missingExecutable(_ detail: String) -> LiveTestError { LiveTestError(description: detail) }
}
