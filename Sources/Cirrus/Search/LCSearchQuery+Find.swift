import CirrusModel
public import Foundation

extension LCSearchQuery {
    /// The next page of matching objects: `GET /1.1/search/select?q=&clazz=&limit=&skip=&sid=&highlights=&fields=
    /// &include=&order=&sort=`. Each result is an object of its `className` (a registered subclass, ``LCUser`` for
    /// `_User`, …), or of the query's class, holding its fields and, with ``highlights``, its `_highlight` fields
    /// (``LCObject/highlights``). The reply's `hits` and `sid` are kept (``hits``, ``sid``, ``hasMore``).
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` without a query string or with both an
    ///   ``order`` and a ``sortBuilder`` (no request); the server's error otherwise.
    public func find() async throws -> [LCObject] {
        let reply = try await RESTClient(application: application).send("GET", "/search/select", query: try parameters())
        guard let results = reply["results"]?.arrayValue else { throw LCError.malformed("The search reply has no results.") }
        let objects = try results.map { try object($0, replyClass: reply["className"]?.stringValue) }
        record(reply)
        return objects
    }

    /// Finds the next page of matching objects; `completion` gets `.success(objects:)` or `.failure(error:)` on
    /// `completionQueue`.
    @discardableResult
    public func find(completionQueue: DispatchQueue = .main, completion: @escaping (LCQueryResult<LCObject>) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.find() }
    }

    /// Finds the next page of matching objects, blocking the calling thread.
    public func find() -> LCQueryResult<LCObject> {
        Call.wait { try await self.find() }
    }

    /// The object of one result: of the class it names, else the reply's, else the query's. Its `_app_url` and
    /// `_deeplink` (LeanCloud's web links of the object) are left out, and a `null` `_highlight` too.
    private func object(_ result: JSON, replyClass: String?) throws -> LCObject {
        guard var members = result.objectValue else { throw LCError.malformed("A search result is not an object.") }
        guard let resultClass = members["className"]?.stringValue ?? replyClass ?? className else {
            throw LCError.malformed("A search result names no class.")
        }
        for key in ["_app_url", "_deeplink"] { members[key] = nil }
        if members[LCObject.highlightKey]?.isNull == true { members[LCObject.highlightKey] = nil }
        return ObjectDecoder(application: application).object(.object(members), className: resultClass)
    }
}
