package import AsyncHTTPClient
import CirrusConcurrency
import CirrusModel
package import CirrusServices
import NIOCore
import NIOHTTP1

/// Calls third-party providers' token checks over HTTP(S) with async-http-client: the whole exchange (connection,
/// request, the reply up to 1 MB) within the timeout the check gives.
package struct HTTPProviderClient: ProviderClient {
    let client: HTTPClient
    static let maximumReplySize = 1 << 20

    package init(client: HTTPClient = .shared) {
        self.client = client
    }

    package func send(_ request: ProviderRequest, timeout: Duration) async throws -> ProviderReply {
        var http = HTTPClientRequest(url: request.url)
        http.headers.add(name: "accept", value: "application/json")
        if let form = request.form {
            http.method = .POST
            http.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
            http.body = .bytes(ByteBuffer(string: ProviderRequest.encoded(form.sorted { $0.key < $1.key })))
        }
        let (client, prepared) = (client, http)
        let deadline = TimeAmount(timeout)
        return try await TimeLimit.run(within: timeout) {
            let response = try await client.execute(prepared, timeout: deadline)
            let body = try await response.body.collect(upTo: Self.maximumReplySize)
            return ProviderReply(status: Int(response.status.code), body: Array(body.readableBytesView))
        }
    }
}
