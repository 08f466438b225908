import Hummingbird

/// The ceiling of the HTTP layer for bench/run.sh: Hummingbird answering every GET with a fixed JSON object of the size
/// of a small Cirrus object, with no routing by dialect, authentication, database or encoding. What Cirrus adds to a
/// request is the distance between this and its own numbers.
let body = #"{"createdAt":"2026-11-24T00:00:00.000Z","objectId":"6b027f22234b4712c3293641","n":1,"name":"bench","tags":["a","b"],"updatedAt":"2026-11-24T00:00:00.000Z"}"#
let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 8080 : 8080
let router = Router()
router.get("**") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
