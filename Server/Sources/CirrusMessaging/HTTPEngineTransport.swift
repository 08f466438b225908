package import AsyncHTTPClient
import CirrusConcurrency
package import CirrusServices
import NIOCore
import NIOHTTP1

/// Calls the cloud-code engine over HTTP(S) with async-http-client: the whole exchange (connection, request, a reply
/// of at most ``maximumReplySize`` bytes) within the call's time limit; redirects are not followed (an engine that
/// answers one is misconfigured, and following could loop or leave the app's network).
package struct HTTPEngineTransport: EngineTransport {
    let client: HTTPClient
    /// The largest reply read, in bytes; a larger one fails the call.
    let maximumReplySize: Int

    package init(client: HTTPClient = HTTPEngineTransport.sharedClient, maximumReplySize: Int = 16 << 20) {
        self.client = client
        self.maximumReplySize = maximumReplySize
    }

    /// One client for every engine call of the process: connections are kept alive between calls.
    package static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool = .init(idleTimeout: .seconds(60))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    package func send(_ request: EngineRequest, to baseURL: String, timeout: Duration) async throws(EngineTransportError) -> EngineReply {
        var http = HTTPClientRequest(url: Self.join(baseURL, request.path))
        http.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { http.headers.add(name: name, value: value) }
        if let body = request.body { http.body = .bytes(ByteBuffer(bytes: body)) }
        let (client, prepared, limit) = (client, http, maximumReplySize)
        let deadline = TimeAmount(timeout)
        do {
            return try await TimeLimit.run(within: timeout) {
                let response = try await client.execute(prepared, timeout: deadline)
                if (300..<400).contains(Int(response.status.code)) { throw EngineTransportError.redirected(status: Int(response.status.code)) }
                let body = try await response.body.collect(upTo: limit)
                return EngineReply(status: Int(response.status.code), body: Array(body.readableBytesView))
            }
        } catch let error as EngineTransportError {
            throw error
        } catch is TimeLimitExceeded {
            throw .timedOut
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw .replyTooLarge(limit: limit)
        } catch {
            throw .unreachable("\(error)")
        }
    }

    /// `base` (with or without a trailing `/`) followed by `path` (which starts with `/`); `base` itself for no path
    /// (a webhook's URL).
    static func join(_ base: String, _ path: String) -> String {
        path.isEmpty ? base : (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
    }
}
