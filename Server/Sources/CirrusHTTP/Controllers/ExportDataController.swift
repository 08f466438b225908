import CirrusMigration
import CirrusModel
import CirrusServices
import HTTPTypes

/// LeanCloud's data export (master key): `POST /1.1/exportData` starts an export in the background and answers
/// `{"status":"running","id","app_id"}`; `GET /1.1/exportData/<id>` answers the same while it runs, then
/// `{"status":"done","download_url",…}` (a signed, expiring URL) or `{"status":"failed","error",…}`.
struct ExportDataController: Sendable {
    let jobs: ExportJobs
    let appId: String
    /// The base of `url` in exported `_File` rows.
    let fileURLBase: String?

    func register(on router: inout APIRouter) {
        router.on(.post, "exportData", dialects: [.leancloud]) { try await start($0) }
        router.on(.get, "exportData/:id", dialects: [.leancloud]) { try await status($0) }
    }

    func start(_ request: APIRequest) async throws -> APIResponse {
        guard request.caller.isMaster else { throw APIError(.masterKeyRequired, "The request must be signed by master key.") }
        let body = try request.objectBody()
        let options = try Self.options(body, fileURLBase: fileURLBase)
        let email = try Self.text(body, "email")
        let status = try await jobs.start(options, email: email)
        return APIResponse(body: reply(status))
    }

    func status(_ request: APIRequest) async throws -> APIResponse {
        guard request.caller.isMaster else { throw APIError(.masterKeyRequired, "The request must be signed by master key.") }
        // The archive holds password hashes and session tokens: not for a read-only master.
        guard !request.caller.isReadOnly else { throw APIError(.forbidden, "A read-only caller may not read exports.") }
        let id = request.parameter("id")
        guard let status = try await jobs.status(id: id) else { throw APIError(.notFound, "No export with id '\(id)'.") }
        return APIResponse(body: reply(status))
    }

    private func reply(_ status: ExportJobStatus) -> JSON {
        var members: [String: JSON] = ["status": .string(status.state.rawValue), "id": .string(status.id), "app_id": .string(appId)]
        switch status.state {
        case .done:
            members["download_url"] = .string(jobs.downloadURL(id: status.id))
            members["size"] = .int(Int64(status.size))
        case .failed: members["error"] = .string(status.error ?? "failed")
        case .running: break
        }
        return .object(members)
    }

    /// LeanCloud's body: `from_date`, `to_date` (`2015-09-20`), `classes` (`"A,B"`), `only-schema` (`"true"`).
    static func options(_ body: JSON, fileURLBase: String?) throws -> ExportOptions {
        var options = ExportOptions(fileURLBase: fileURLBase)
        if let from = try text(body, "from_date") { options.from = try ExportDate.parse(from, endOfDay: false, name: "from_date") }
        if let to = try text(body, "to_date") { options.to = try ExportDate.parse(to, endOfDay: true, name: "to_date") }
        if let from = options.from, let to = options.to, from >= to {
            throw APIError(.invalidParameter, "from_date must come before to_date.")
        }
        if let classes = body["classes"] {
            switch classes {
            case .string(let list): options.classes = try ExportOptions.classList(list)
            case .array(let names):
                options.classes = try ExportOptions.classList(try names.map { name throws(APIError) -> String in
                    guard let text = name.stringValue else { throw APIError(.invalidParameter, "classes must name classes.") }
                    return text
                }.joined(separator: ","))
            case .null: break
            default: throw APIError(.invalidParameter, "classes must be a comma-separated string of class names.")
            }
        }
        switch body["only-schema"] ?? body["only_schema"] {
        case nil, .null?: break
        case .bool(let flag)?: options.onlySchema = flag
        case .string(let text)? where text == "true" || text == "false": options.onlySchema = text == "true"
        default: throw APIError(.invalidParameter, "only-schema must be \"true\" or \"false\".")
        }
        return options
    }

    /// A string member, `nil` when absent, null or empty.
    static func text(_ body: JSON, _ name: String) throws(APIError) -> String? {
        switch body[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        default: throw APIError(.invalidParameter, "\(name) must be a string.")
        }
    }
}
