@testable import CirrusHTTP
import CirrusModel
import CirrusServer
import CirrusTesting
import Foundation
import Hummingbird
import Testing

/// The API description: `docs/openapi.json` is what the server serves, and it describes every LeanCloud route.
@Suite struct OpenAPIDocumentTests {
    /// `docs/openapi.json` in this checkout.
    static let documentURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../docs/openapi.json")

    static func repositoryDocument() throws -> String {
        try String(contentsOf: documentURL, encoding: .utf8)
    }

    static func parsedDocument() throws -> JSON {
        try JSONParser.parse(try repositoryDocument())
    }

    @Test("GET /1.1/openapi.json needs no credentials and serves docs/openapi.json byte for byte, an OpenAPI 3.1 document")
    func servedDocumentIsTheRepositorys() async throws {
        let expected = try Self.repositoryDocument()
        try await TestServer.with { client in
            let reply = try await client.send(.leancloud, .get, OpenAPIDocument.path, body: nil, auth: .none)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
            #expect(reply.header("Access-Control-Allow-Origin") == "*")
            #expect(reply.bodyText == expected, "run scripts/openapi-embed after changing docs/openapi.json")
            let document = try JSONParser.parse(reply.bodyText)
            #expect(document["openapi"]?.stringValue == "3.1.0")
            #expect((document["paths"]?.objectValue?.count ?? 0) > 40)
            let head = try await client.send(.leancloud, .head, OpenAPIDocument.path, body: nil, auth: .none)
            #expect(head.status == 200)
            #expect(head.bodyText.isEmpty)
            #expect(head.header("Content-Length") == String(expected.utf8.count))
        }
    }

    @Test("Other methods on /1.1/openapi.json answer 405 with Allow; a CORS preflight is answered as on every path")
    func otherMethodsAreNotAllowed() async throws {
        try await TestServer.with { client in
            for method in [HTTPRequest.Method.post, .put, .delete, .patch] {
                let reply = try await client.send(.leancloud, method, OpenAPIDocument.path, body: "{}", auth: .none)
                #expect(reply.status == 405)
                #expect(reply.code == 1)
                #expect(reply.header("Allow") == "GET, HEAD, OPTIONS")
            }
            let preflight = try await client.send(.leancloud, .options, OpenAPIDocument.path, body: nil, auth: .none)
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
        }
    }

    @Test("Every LeanCloud route is described in docs/openapi.json, and every described /1.1 operation is a route")
    func documentDescribesEveryRoute() async throws {
        let described = try Self.describedOperations()
        let routes = try await Self.leanCloudRoutes()
        for route in routes {
            let covered = described.contains { $0.method == route.method && Self.matches(template: $0.path, route: route.path) }
            #expect(covered, "\(route.method) \(route.path) is not described in docs/openapi.json")
        }
        // Served outside the router: this document and the signed export download.
        let outsideRouter: Set<String> = [OpenAPIDocument.path, "/1.1/exportData/{id}/download"]
        for operation in described where operation.path.hasPrefix("/1.1/") && !outsideRouter.contains(operation.path) {
            let routed = routes.contains { $0.method == operation.method && Self.matches(template: operation.path, route: $0.path) }
            #expect(routed, "\(operation.method) \(operation.path) is described but no LeanCloud route serves it")
        }
    }

    @Test("Every operation has an id, a summary, a description and responses, and every error reply is the Error schema")
    func operationsAreDocumented() throws {
        let document = try Self.parsedDocument()
        var ids: Set<String> = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] {
                let name = "\(method.uppercased()) \(path)"
                let id = try #require(operation["operationId"]?.stringValue, "\(name) has no operationId")
                #expect(ids.insert(id).inserted, "operationId \(id) is used twice")
                let summary = operation["summary"]?.stringValue ?? ""
                let description = operation["description"]?.stringValue ?? ""
                #expect(!summary.isEmpty, "\(name) has no summary")
                #expect(!description.isEmpty, "\(name) has no description")
                let responses = operation["responses"]?.objectValue ?? [:]
                #expect(!responses.isEmpty, "\(name) has no responses")
                for (status, response) in responses where status.hasPrefix("4") {
                    if let reference = response["$ref"]?.stringValue {
                        #expect(reference.hasPrefix("#/components/responses/"), "\(name) \(status) refers to \(reference)")
                        continue
                    }
                    // Pages and downloads answer text; every JSON error is the Error schema.
                    guard let schema = response["content"]?["application/json"]?["schema"] else { continue }
                    #expect(schema["$ref"]?.stringValue == "#/components/schemas/Error", "\(name) \(status) is not an Error reply")
                }
            }
        }
    }

    // MARK: - Helpers

    struct Operation: Hashable {
        let method: HTTPRequest.Method
        let path: String
    }

    /// The operations of the document: method and path template (`/1.1/classes/{className}`).
    static func describedOperations() throws -> [Operation] {
        let methods: [String: HTTPRequest.Method] = ["get": .get, "put": .put, "post": .post, "delete": .delete, "head": .head]
        var operations: [Operation] = []
        for (path, item) in try parsedDocument()["paths"]?.objectValue ?? [:] {
            for name in (item.objectValue ?? [:]).keys {
                let method = try #require(methods[name], "unexpected method \(name) on \(path)")
                operations.append(Operation(method: method, path: path))
            }
        }
        return operations
    }

    /// The routes of a real server's router that serve the LeanCloud dialect, as `/1.1/classes/:className`.
    static func leanCloudRoutes() async throws -> [Operation] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await CirrusServer.build(ServerConfiguration(dataDirectory: directory.path, keys: TestServer.keys))
        let routes = server.application.responder.router.endpoints.filter { $0.dialects.contains(.leancloud) }
        try await server.store.close()
        return routes.map { Operation(method: $0.method, path: "/1.1/" + $0.path) }
    }

    /// Whether a document path (`{name}` segments match any one segment) covers a route (`:name` segments are
    /// parameters, matched by parameters only).
    static func matches(template: String, route: String) -> Bool {
        let expected = template.split(separator: "/")
        let actual = route.split(separator: "/")
        guard expected.count == actual.count else { return false }
        return zip(expected, actual).allSatisfy { want, have in
            want.hasPrefix("{") ? true : (!have.hasPrefix(":") && want == have)
        }
    }
}
