// What the seed-sample tests run the guide's samples in. The samples themselves live in the other files of this
// target, which import `Cirrus` without `@testable`, so that they compile against the public API only; this file
// reaches the SDK's internal `PendingCalls`, which tells when the calls a sample started are over.
@testable import Cirrus
import CirrusModel
import CirrusServer
import CirrusServices
import CirrusStorage
import CirrusTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The samples of seed 000 (the LeanCloud Swift guide). The guide's samples use `LCApplication.default`, which one
/// process has only one of, so the suites nested in this one run one test at a time.
@Suite("Seed 000 samples", .serialized)
struct SeedSamples {}

/// The server one seed-sample test runs against, with `LCApplication.default` pointing at it.
struct SeedServer: Sendable {
    let live: LiveTestServer
    /// Every HTTP exchange of the SDK with the server, in order.
    let exchanges: ExchangeLog
    /// Where `LCApplication.default` keeps its current user and query cache.
    let directory: URL

    /// Runs `sample` on a thread of its own (the guide's blocking calls, `todo.save()`, must not park a thread of the
    /// concurrency pool), then waits until every call it started with a completion handler has finished and its
    /// handler has returned, calls started inside those handlers included.
    /// - Returns: the results the sample's calls got, in order (handed to its completion handlers or returned by its
    ///   blocking calls).
    /// - Throws: what the sample threw (fragments of the guide call throwing methods outside a `do`), once its calls
    ///   are over.
    @discardableResult
    func run(_ sample: @escaping @Sendable () throws -> Void) async throws -> [SampleResult] {
        let pending = PendingCalls()
        let thrown: (any Error)? = await withCheckedContinuation { continuation in
            Thread {
                let thrown: (any Error)? = PendingCalls.$current.withValue(pending) {
                    do {
                        try sample()
                        return nil
                    } catch {
                        return error
                    }
                }
                continuation.resume(returning: thrown.map(SendableError.init))
            }.start()
        }
        await pending.idle()
        if let thrown { throw thrown }
        return pending.results.map(SampleResult.init)
    }

    /// Sends a request with the master key, for set-up and checks a client may not do. The reply's JSON.
    func master(_ method: String, _ path: String, _ body: String? = nil) async throws -> (status: Int, json: JSON) {
        var request = URLRequest(url: URL(string: live.baseURL + path)!)
        request.httpMethod = method
        request.setValue(live.keys.appId, forHTTPHeaderField: "X-LC-Id")
        request.setValue(live.keys.masterKey + ",master", forHTTPHeaderField: "X-LC-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSONParser.parse(data))
    }

    /// The objects of `className` matching `where` (JSON text), read with the master key, ordered by creation.
    func objects(_ className: String, where condition: String = "{}") async throws -> [JSON] {
        let path = "/1.1/classes/\(className)?order=createdAt&limit=1000&where="
            + condition.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let (status, json) = try await master("GET", path)
        guard status == 200, case .array(let results)? = json["results"] else {
            throw SeedHarnessError("GET \(path) answered \(status): \(json)")
        }
        return results
    }

    /// The one object of `className` with `objectId`, read with the master key; `nil` when there is none.
    func object(_ className: String, _ objectId: String) async throws -> JSON? {
        let (status, json) = try await master("GET", "/1.1/classes/\(className)/\(objectId)")
        // LeanCloud answers `{}` for an object that does not exist. (`JSON` is `ExpressibleByNilLiteral`: `nil` next
        // to a `JSON?` may mean `JSON.null`, so optionals are tested with `if let`.)
        guard status == 200, let id = json["objectId"], id.stringValue != nil else { return Optional.none }
        return json
    }

    /// Whether the object of `className` with `objectId` exists.
    func exists(_ className: String, _ objectId: String) async throws -> Bool {
        if let _ = try await object(className, objectId) { return true }
        return false
    }

    /// Stores an object with a chosen id (as the guide's samples name ids such as `582570f38ac247004f39c24b`),
    /// straight into the server's store: no endpoint lets a client choose an object's id.
    func insert(_ className: String, objectId: String, createdAt: Date = Date(), _ fields: [String: JSON]) async throws {
        let time = Timestamp(millisecondsSince1970: Int64((createdAt.timeIntervalSince1970 * 1000).rounded()))
        let object = StoredObject(className: className, objectId: objectId, createdAt: time, updatedAt: time, acl: nil, fields: fields)
        let results = try await live.store.perform(
            [.insert(.init(object: object, relations: [], newFields: fields.compactMapValues(Self.fieldType), maximumSize: 1 << 20))],
            atomically: true
        )
        for result in results {
            if case .failure(let error) = result { throw SeedHarnessError("inserting \(className) \(objectId): \(error)") }
        }
    }

    /// The schema type of a stored value.
    private static func fieldType(_ value: JSON) -> FieldType? {
        switch value {
        case .null: nil
        case .bool: .boolean
        case .int, .double: .number
        case .string: .string
        case .array: .array
        case .object(let members):
            switch members["__type"]?.stringValue {
            case "Date": .date
            case "GeoPoint": .geoPoint
            case "Pointer": members["className"]?.stringValue.map { .pointer(targetClass: $0) }
            case "File": .file
            case "Bytes": .bytes
            default: .object
            }
        }
    }
}

/// What one call of a sample got.
struct SampleResult: Sendable {
    let result: any Sendable

    init(_ result: any Sendable) {
        self.result = result
    }

    /// Whether the call succeeded.
    var isSuccess: Bool { error == nil }

    /// The error of a failure.
    var error: LCError? { (result as? any CallResult)?.error }

    /// The object of an `LCValueResult` success.
    var object: LCObject? {
        switch result {
        case let value as LCValueResult<LCObject>: value.object
        case let value as LCValueResult<LCUser>: value.object
        default: nil
        }
    }

    /// The objects of an `LCQueryResult` success.
    var objects: [LCObject]? { (result as? LCQueryResult<LCObject>)?.objects }

    /// The count of an `LCCountResult` success.
    var count: Int? {
        guard let result = result as? LCCountResult, result.isSuccess else { return nil }
        return result.intValue
    }
}

/// One request of the SDK and the server's reply.
struct Exchange: Sendable {
    let method: String
    let url: URL
    let requestBody: JSON?
    let status: Int
    let responseBody: JSON?

    /// The path of the URL (`/1.1/classes/Todo`).
    var path: String { url.path }

    /// The query parameters, decoded.
    var parameters: [String: String] {
        var parameters: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] { parameters[item.name] = item.value }
        return parameters
    }
}

/// The exchanges of a ``RecordingURLSessionTransport``.
final class ExchangeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Exchange] = []

    func append(_ exchange: Exchange) {
        lock.withLock { recorded.append(exchange) }
    }

    var all: [Exchange] { lock.withLock { recorded } }

    /// Forgets the exchanges so far (those of a test's set-up).
    func clear() {
        lock.withLock { recorded = [] }
    }
}

/// URLSession (the SDK's default transport, real HTTP) with every exchange written down.
struct RecordingURLSessionTransport: Transport {
    let base = URLSessionTransport()
    let log: ExchangeLog

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await base.send(request)
        log.append(
            Exchange(
                method: request.method, url: request.url, requestBody: request.body.flatMap { try? JSONParser.parse($0) },
                status: response.status, responseBody: try? JSONParser.parse(response.body)
            )
        )
        return response
    }
}

/// An error a sample threw, carried out of its thread.
struct SendableError: Error, @unchecked Sendable, CustomStringConvertible {
    let error: any Error

    var description: String { "\(error)" }
}

struct SeedHarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The phone number and code of the guide's samples: a sandbox number of the server, whose fixed code is always
/// accepted and to which no SMS is sent (seed 000 L769–773).
let guidePhone = "+19490008888"
let guideCode = "123456"

/// Runs `body` against a new in-process server over HTTP, with `LCApplication.default` set to its URL and keys, a
/// current-user directory and a query cache of its own (removed afterwards), and no user logged in.
/// - Parameter sandbox: whether ``guidePhone`` is a sandbox number with the fixed code ``guideCode``.
func withSeedServer(sandbox: Bool = false, _ body: @Sendable (SeedServer) async throws -> Void) async throws {
    try await LiveTestServer.with(configure: { configuration in
        if sandbox { configuration.accounts.messaging.sandboxNumbers[guidePhone] = guideCode }
        // The guide logs in with placeholder tokens ("ACCESS_TOKEN", "IDENTITY TOKEN"): its platforms are trusted as sent.
        configuration.authData.trustedPlatforms = ["github", "lc_apple"]
    }) { live in
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-seed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = ExchangeLog()
        try LCApplication.default.set(
            id: live.keys.appId, key: live.keys.appKey, serverURL: live.baseURL,
            configuration: .init(
                transport: RecordingURLSessionTransport(log: log), currentUserStorage: .directory(directory),
                queryCacheDirectory: directory
            )
        )
        try await body(SeedServer(live: live, exchanges: log, directory: directory))
    }
}

extension JSON {
    /// The members of an array (empty for anything else).
    var elements: [JSON] {
        if case .array(let elements) = self { return elements }
        return []
    }
}
