import CirrusModel
public import Foundation

/// Runs CQL, LeanCloud's SQL-like query language (`GET /1.1/cloudQuery`), with `?` placeholders.
///
/// ```swift
/// let value = try await LCCQLClient.execute("select * from Todo where priority > ? limit 10", parameters: [1])
/// value.objects
/// ```
public enum LCCQLClient {
    /// Runs `cql` with `parameters` for its `?` placeholders (`pvalues`).
    /// - Throws: `LCError` 300 for a syntax error.
    public static func execute(
        application: LCApplication = .default, _ cql: String, parameters: [any LCValueConvertible] = []
    ) async throws -> LCCQLValue {
        var query = [("cql", cql)]
        if !parameters.isEmpty {
            query.append(("pvalues", JSONWriter.string(.array(parameters.map { ValueCoder.encode($0.lcValue) }))))
        }
        let reply = try await RESTClient(application: application).send("GET", "/cloudQuery", query: query)
        return LCCQLValue(reply, decoder: ObjectDecoder(application: application))
    }

    /// Runs `cql`; `completion` gets `.success(value:)` or `.failure(error:)` on `completionQueue`.
    @discardableResult
    public static func execute(
        application: LCApplication = .default, _ cql: String, parameters: [any LCValueConvertible] = [],
        completionQueue: DispatchQueue = .main, completion: @escaping (LCCQLResult) -> Void
    ) -> LCRequest {
        let values = parameters.map(\.lcValue)
        return Call.start(on: completionQueue, completion: completion) {
            try await execute(application: application, cql, values: values)
        }
    }

    /// Runs `cql`, blocking the calling thread.
    public static func execute(application: LCApplication = .default, _ cql: String, parameters: [any LCValueConvertible] = []) -> LCCQLResult {
        let values = parameters.map(\.lcValue)
        return Call.wait { try await execute(application: application, cql, values: values) }
    }

    private static func execute(application: LCApplication, _ cql: String, values: [any LCValue]) async throws -> LCCQLValue {
        try await execute(application: application, cql, parameters: values.map { $0 as any LCValueConvertible })
    }
}

/// What a CQL or BQL statement returned: the objects of a select (with `count` when `count(*)` was selected).
public struct LCCQLValue: Sendable {
    /// The objects found, or created.
    public let objects: [LCObject]
    /// The count of a `select count(*)`, else 0.
    public let count: Int
    /// The class of the objects, when the server names it.
    public let className: String?

    /// The value of a reply; `className` names the objects' class when the reply does not (Bmob's BQL replies).
    init(_ reply: JSON, decoder: ObjectDecoder, className: String? = nil) {
        let className = reply["className"]?.stringValue ?? className
        self.className = className
        count = reply["count"]?.intValue.map(Int.init) ?? 0
        let results = reply["results"]?.arrayValue ?? []
        objects = results.map { decoder.object($0, className: className ?? $0["className"]?.stringValue ?? "") }
    }
}

/// The result of a CQL or BQL statement: `.success(value:)` or `.failure(error:)`.
public enum LCCQLResult: Sendable, CallResult {
    case success(value: LCCQLValue)
    case failure(error: LCError)

    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    public var isFailure: Bool { !isSuccess }

    /// The objects of a success (empty for a failure).
    public var objects: [LCObject] {
        if case .success(let value) = self { return value.objects }
        return []
    }

    /// The count of a success (0 for a failure).
    public var count: Int {
        if case .success(let value) = self { return value.count }
        return 0
    }

    public var error: LCError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    init(success: LCCQLValue) { self = .success(value: success) }
    init(failure: LCError) { self = .failure(error: failure) }
}
