package import HTTPTypes
import HummingbirdTesting
import NIOCore

extension TestClient {
    /// A `GET` without credentials whose body is kept as bytes (archives, file contents), not decoded as text.
    package func download(_ path: String) async throws -> (status: Int, headers: HTTPFields, bytes: [UInt8]) {
        let response = try await client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
        return (Int(response.status.code), response.headers, Array(response.body.readableBytesView))
    }
}
