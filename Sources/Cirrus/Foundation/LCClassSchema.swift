import CirrusModel
public import Foundation

/// A class's structure as a client may read it (Bmob's `BmobTableSchema`, seed 004 "获取表结构"): its fields and their
/// types, without the ones the app hides from clients.
public struct LCClassSchema: Sendable, Hashable, CustomStringConvertible {
    /// One field: its type (`String`, `Number`, `Pointer`, …) and, for pointers and relations, the class it points to.
    public struct Field: Sendable, Hashable {
        public let type: String
        public let targetClass: String?
    }

    public let className: String
    public let fields: [String: Field]

    public var description: String {
        let lines = fields.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value.type)" + ($0.value.targetClass.map { " → \($0)" } ?? "") }
        return ([className] + lines).joined(separator: "\n")
    }

    /// A class of a schema reply (`{"className", "fields": {"name": {"type", "targetClass"?}}}`).
    init(_ json: JSON) throws {
        guard let className = json["className"]?.stringValue, case .object(let fields)? = json["fields"] else {
            throw LCError.malformed("Not a class schema: \(json).")
        }
        self.className = className
        self.fields = fields.compactMapValues { field in
            field["type"]?.stringValue.map { Field(type: $0, targetClass: field["targetClass"]?.stringValue) }
        }
    }
}

extension LCApplication {
    /// The structure of class `className` as the caller may read it: `GET /1/schemas/<class>` in Bmob's dialect, which a
    /// Cirrus server answers with the app key for the classes the caller may find (`Bmob.getTableSchemasWithClassName`).
    /// - Throws: `LCError` when the class does not exist or the caller may not find its objects.
    public func classSchema(_ className: String) async throws -> LCClassSchema {
        try LCClassSchema(try await Bmob.get(application: self, "/schemas/" + className, query: []))
    }

    /// Every class the caller may find, with the fields it may read (`Bmob.getAllTableSchemasWithCallBack`).
    public func classSchemas() async throws -> [LCClassSchema] {
        let reply = try await Bmob.get(application: self, "/schemas", query: [])
        return try (reply["results"]?.arrayValue ?? []).map(LCClassSchema.init)
    }

    /// The structure of a class; `completion` gets it on `completionQueue`.
    @discardableResult
    public func classSchema(
        _ className: String, completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<LCClassSchema>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.classSchema(className) }
    }

    /// Every class's structure; `completion` gets them on `completionQueue`.
    @discardableResult
    public func classSchemas(
        completionQueue: DispatchQueue = .main, completion: @escaping (LCQueryResult<LCClassSchema>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.classSchemas() }
    }
}

// The blocking forms of reading class structures.
extension LCApplication {
    /// The structure of a class, blocking the calling thread.
    public func classSchema(_ className: String) -> LCValueResult<LCClassSchema> {
        Call.wait { try await self.classSchema(className) }
    }

    /// Every class's structure, blocking the calling thread.
    public func classSchemas() -> LCQueryResult<LCClassSchema> {
        Call.wait { try await self.classSchemas() }
    }
}
