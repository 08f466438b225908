import CirrusModel
import CirrusServices
import HTTPTypes

/// `/schemas[/<Class>]` (master key): LeanCloud's read-only shape, Parse's full one, Bmob's list; and Parse-style
/// creates, changes and drops in every dialect. Bmob's reads also take the app key: the classes the caller may find,
/// with the fields it may read (``SchemaEncoder/client(_:)``).
struct SchemaController: Sendable {
    let schemas: SchemaService

    func register(on router: inout APIRouter) {
        router.on(.get, "schemas") { request in
            if isClientRead(request) {
                return APIResponse(body: ["results": .array(try await schemas.clientSchemas(caller: request.caller).map(SchemaEncoder(dialect: .bmob).client))])
            }
            let all = try await schemas.all(caller: request.caller)
            guard request.dialect == .leancloud, !request.flag("full") else {
                return APIResponse(body: ["results": .array(all.map { SchemaEncoder(dialect: request.dialect).full($0) })])
            }
            var members: [String: JSON] = [:]
            for schema in all { members[schema.className] = SchemaEncoder(dialect: .leancloud).fields(schema) }
            return APIResponse(body: .object(members))
        }
        router.on(.get, "schemas/:className") { request in
            if isClientRead(request) {
                return APIResponse(body: SchemaEncoder(dialect: .bmob).client(try await schemas.clientSchema(of: request.parameter("className"), caller: request.caller)))
            }
            let schema = try await schemas.schema(of: request.parameter("className"), caller: request.caller)
            return APIResponse(body: reply(schema, request))
        }
        router.on(.post, "schemas") { request in
            let body = try request.objectBody()
            guard let className = body["className"]?.stringValue else { throw APIError(.invalidClassName, "A className is required.") }
            return try await create(className, body, request)
        }
        router.on(.post, "schemas/:className") { request in
            let body = try request.objectBody()
            if let named = body["className"]?.stringValue, named != request.parameter("className") {
                throw APIError(.invalidClassName, "The className in the body does not match the path: \(named).")
            }
            return try await create(request.parameter("className"), body, request)
        }
        router.on(.put, "schemas/:className") { request in
            let change = try SchemaChange(body: try request.objectBody())
            let schema = try await schemas.update(request.parameter("className"), change: change, caller: request.caller)
            return APIResponse(body: SchemaEncoder(dialect: request.dialect).full(schema))
        }
        router.on(.delete, "schemas/:className") { request in
            try await schemas.delete(request.parameter("className"), caller: request.caller)
            return APIResponse(body: request.dialect.acknowledgement)
        }
    }

    /// A Bmob read without the master key: Bmob's SDKs read table structures with the app key.
    private func isClientRead(_ request: APIRequest) -> Bool {
        request.dialect == .bmob && !request.caller.isMaster
    }

    private func create(_ className: String, _ body: JSON, _ request: APIRequest) async throws -> APIResponse {
        let schema = try await schemas.create(className, change: try SchemaChange(body: body), caller: request.caller)
        return APIResponse(status: .created, body: SchemaEncoder(dialect: request.dialect).full(schema))
    }

    /// LeanCloud answers one class with its fields; `full=1` (and the other dialects) with the whole class.
    private func reply(_ schema: ClassSchema, _ request: APIRequest) -> JSON {
        let encoder = SchemaEncoder(dialect: request.dialect)
        return request.dialect == .leancloud && !request.flag("full") ? encoder.fields(schema) : encoder.full(schema)
    }
}

/// A class as the schema API shows it.
struct SchemaEncoder {
    let dialect: Dialect

    /// Fields the system classes always have, shown even before an object sets them.
    static let systemFields: [String: [String: FieldType]] = [
        "_User": [
            "username": .string, "password": .string, "email": .string, "emailVerified": .boolean, "mobilePhoneNumber": .string,
            "mobilePhoneVerified": .boolean, "authData": .object,
        ],
        "_Role": ["name": .string, "users": .relation(targetClass: "_User"), "roles": .relation(targetClass: "_Role")],
    ]

    /// `{"<field>": {"type": "String"}, …}` with built-in fields, targets (`className` in LeanCloud, `targetClass`
    /// elsewhere) and column flags.
    func fields(_ schema: ClassSchema) -> JSON {
        schema.wireFields(extra: Self.systemFields[schema.className] ?? [:], targetKeys: [dialect.schemaTargetKey])
    }

    /// `{"className", "fields"}` of a class as a client may see it (``SchemaService/clientView(_:)``): built-in fields
    /// but the password and those it may not read.
    func client(_ schema: ClassSchema) -> JSON {
        let protected = ClassSchema.protectedFields(of: schema.className, schema: schema).union(["password"])
        let extra = (Self.systemFields[schema.className] ?? [:]).filter { !protected.contains($0.key) }
        return ["className": .string(schema.className), "fields": schema.wireFields(extra: extra, targetKeys: [dialect.schemaTargetKey])]
    }

    /// `{"className", "fields", "classLevelPermissions", "defaultACL"?, "indexes"}`; permissions in Parse's form for
    /// Parse and LeanCloud's otherwise.
    func full(_ schema: ClassSchema) -> JSON {
        schema.wire(fields: fields(schema), permissions: dialect == .parse ? .parse : .leancloud)
    }
}
