@testable import Cirrus
import CirrusServer
import CirrusTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `body` with an app of a new in-process server reached over real HTTP (URLSession on a loopback port). The
/// app keeps its current user in a directory of its own, removed afterwards.
func withLiveApp<T: Sendable>(
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }, _ body: @Sendable (LCApplication, LiveTestServer) async throws -> T
) async throws -> T {
    try await LiveTestServer.with(configure: configure) { server in
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let application = try LCApplication(
            id: server.keys.appId, key: server.keys.appKey, serverURL: server.baseURL,
            configuration: .init(currentUserStorage: .directory(directory))
        )
        return try await body(application, server)
    }
}

extension LiveTestServer {
    /// Sends a request with the master key (`X-LC-Key: <master>,master`), for set-up that clients may not do.
    func master(_ method: String, _ path: String, body: String? = nil) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.setValue(keys.appId, forHTTPHeaderField: "X-LC-Id")
        request.setValue(keys.masterKey + ",master", forHTTPHeaderField: "X-LC-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Downloads `url` without credentials.
    static func download(_ url: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
