import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// `GET /1.1/scan/classes/<Class>` (master key): the whole class in `scan_key` order, page by page, with an
/// opaque cursor valid for 10 minutes; `{"results":[],"cursor":null}` ends the scan.
struct ScanController: Sendable {
    let objects: ObjectService
    let cursors: ScanCursorCodec

    func register(on router: inout APIRouter) {
        router.on(.get, "scan/classes/:className", dialects: [.leancloud]) { try await scan($0) }
    }

    func scan(_ request: APIRequest) async throws -> APIResponse {
        guard request.caller.isMaster else { throw APIError(.masterKeyRequired, "The request must be signed by master key.") }
        let className = request.parameter("className")
        let condition = try QueryParameters(request: request, limits: objects.configuration.queryLimits).condition()
        let keyText = request.query["scan_key"].flatMap { $0.isEmpty ? nil : $0 } ?? "objectId"
        let key = try Self.scanKey(keyText)
        let limit = try Self.limit(request.query["limit"])
        var after: Value?
        if let text = request.query["cursor"], !text.isEmpty {
            let cursor = try cursors.open(text, className: className, key: keyText, now: .now())
            after = try Value(wire: cursor.lastValue)
        }
        let found = try await objects.scan(className, condition: condition, key: key, after: after, limit: limit, caller: request.caller)
        let schema = try await objects.schema(of: className)
        let encoder = ObjectEncoder(dialect: request.dialect)
        let results = found.map { encoder.encode($0, schema: schema, returnACL: request.flag("returnACL")) }
        var next: JSON = .null
        if found.count == limit, let last = found.last, let value = ObjectService.scanKeyValue(of: last, key: key.path) {
            let expiry = Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 + ScanCursor.lifetimeMilliseconds)
            next = .string(cursors.seal(ScanCursor(className: className, key: keyText, lastValue: value, expiresAt: expiry)))
        }
        return APIResponse(body: ["results": .array(results), "cursor": next])
    }

    /// One key, `-key` for descending.
    static func scanKey(_ text: String) throws(APIError) -> SortKey {
        let keys = try SortKey.parseList(text)
        guard keys.count == 1 else { throw APIError(.invalidQuery, "scan_key names exactly one key, got '\(text)'.") }
        return keys[0]
    }

    /// `limit`: 100 by default, at most 1000.
    static func limit(_ text: String?) throws(APIError) -> Int {
        guard let text, !text.isEmpty else { return 100 }
        guard let value = Int(text) else { throw APIError(.invalidQuery, "'limit' must be an integer, got '\(text)'.") }
        return value <= 0 ? 100 : min(value, 1000)
    }
}
