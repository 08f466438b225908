package import CirrusModel
package import CirrusStorage

/// LeanCloud's status system: a status (`_Status`) is sent to the inboxes of the objects a query finds (a user's
/// followers, users matching a condition, one user for a private message) and read back per inbox, newest first,
/// with `messageId`s that page it.
///
/// Who may do what:
/// - a status is sent by a signed-in user as itself (its `source` is the caller), or by the master key as anyone;
///   the audience query runs with the sender's read rights, so a sender reaches only objects it may read;
/// - an inbox is read, counted, marked read and trimmed by its owner (or the master key); being in an inbox is what
///   lets its owner read the status there, so a private status can be readable by its sender alone (its default
///   ACL) and still reach its recipients;
/// - a status is deleted by its source (or the master key), and leaves every inbox.
///
/// The audience is read and delivered page by page (``audiencePage`` objects, one short transaction per page), so a
/// status to 100 000 followers never holds them all in memory nor the writer for long.
package struct StatusService: Sendable {
    let objects: ObjectService

    package init(objects: ObjectService) {
        self.objects = objects
    }

    static let className = InboxKey.statusClass
    /// The objects of the audience read and delivered at a time.
    static let audiencePage = 500
    /// The inboxes a status type may name: letters, digits and `_`, as LeanCloud's `inboxType`.
    static let maximumInboxTypeLength = 64

    /// `POST /statuses {"query":{"className","where","keys"?},"data":{…},"inboxType","source"?}`: creates the status
    /// and delivers it. With `inboxType` `default` it also reaches the sender's own inbox, as LeanCloud's does.
    package func send(_ body: JSON, caller: Caller) async throws -> StoredObject {
        guard case .object(let members) = body else { throw APIError(.invalidJSON, "A status is a JSON object.") }
        guard case .object(var data)? = members["data"] else { throw APIError(.missingRequiredField, "A status has its 'data', a JSON object.") }
        let inboxType = try Self.inboxType(members["inboxType"]?.stringValue ?? "default")
        let source = try self.source(data["source"] ?? members["source"], caller: caller)
        let audience = try Audience(members["query"] ?? .null, limits: objects.configuration.queryLimits)
        for key in ["objectId", "createdAt", "updatedAt", "messageId", "inboxType"] { data[key] = nil }
        if let source { data["source"] = FriendshipService.user(source) }
        data["inboxType"] = .string(inboxType)
        if data["ACL"] == nil {
            // A private status is its sender's to read; its recipients read it through their inboxes.
            var acl: [String: JSON] = inboxType == "private" ? [:] : ["*": ["read": true]]
            if let source { acl[source] = ["read": true, "write": true] }
            data["ACL"] = .object(acl)
        }
        let status = try await objects.create(Self.className, body: .object(data), options: WriteOptions(), caller: .master)
        try await deliver(status.objectId, to: audience, type: inboxType, caller: caller)
        if inboxType == "default", let source {
            try await objects.store.deliver(statusId: status.objectId, to: [InboxOwner(className: "_User", objectId: source)], type: inboxType)
        }
        return status
    }

    /// The status's `source`: the caller's user unless the master key names another.
    private func source(_ sent: JSON?, caller: Caller) throws(APIError) -> String? {
        let named = try FriendRequestService.pointedUser(sent, key: "source")
        if caller.isMaster { return named }
        guard let userId = caller.userId else { throw APIError(.sessionRequired, "A status is sent with the sender's session.") }
        if let named, named != userId { throw APIError(.forbidden, "A status is sent as the signed-in user.") }
        return userId
    }

    /// Reads the audience page by page, in objectId order, with the caller's rights, and delivers each page.
    private func deliver(_ statusId: String, to audience: Audience, type: String, caller: Caller) async throws {
        let schema = try await objects.schema(of: audience.className)
        if audience.className == "_User", schema?.options.permissions == nil {
            // Nothing of the audience goes back to the sender, so `_User`'s default find refusal (which keeps users
            // from being listed) does not apply, as on LeanCloud (R#14: users by gender); a permission the app set does.
            try await objects.authorizeNaming(audience.className, schema: schema, condition: audience.condition, sorting: [], caller: caller)
        } else {
            try await objects.authorizeQuery(audience.className, schema: schema, condition: audience.condition, sorting: [], caller: caller)
        }
        guard schema != nil else { return }
        var after: String?
        while true {
            var condition = audience.condition
            if let after { condition = .and([condition, .compare(FieldPath(field: "objectId"), .greaterThan, .string(after))]) }
            let page = try await objects.store.find(StorageQuery(
                className: audience.className, schema: schema, condition: condition,
                order: [SortKey(path: FieldPath(field: "objectId"), descending: false)], limit: Self.audiencePage, readers: caller.readers
            ))
            let owners = page.compactMap(audience.owner)
            if !owners.isEmpty { try await objects.store.deliver(statusId: statusId, to: owners, type: type) }
            guard page.count == Self.audiencePage, let last = page.last else { return }
            after = last.objectId
        }
    }

    /// `DELETE /statuses/<id>`: by its source or the master key; the status leaves every inbox.
    package func delete(_ statusId: String, caller: Caller) async throws {
        guard let status = try await objects.store.fetch(className: Self.className, ids: [statusId]).first else {
            throw APIError(.objectNotFound, "No status \(statusId).")
        }
        guard caller.isMaster || (caller.userId != nil && FriendRequestService.userId(of: status.fields["source"]) == caller.userId) else {
            throw APIError(.forbidden, "A status is deleted by its sender.")
        }
        // The store takes it out of every inbox in the delete's transaction.
        try await objects.delete(Self.className, objectIds: [statusId], condition: nil, caller: .master)
    }

    // MARK: Inboxes

    /// The inbox a request names (`owner`, a pointer, and `inboxType`), once the caller may use it.
    package func inbox(owner: JSON?, type: String?, caller: Caller) throws(APIError) -> InboxKey {
        guard let owner = FriendRequestService.pointer(owner) else {
            throw APIError(.missingRequiredField, "'owner' names the inbox's owner, a pointer.")
        }
        guard caller.isMaster || (owner.className == "_User" && caller.userId == owner.objectId) else {
            throw APIError(.forbidden, "An inbox is read by its owner.")
        }
        return InboxKey(owner: InboxOwner(className: owner.className, objectId: owner.objectId), type: try Self.inboxType(type ?? "default"))
    }

    /// One page of an inbox: statuses newer than `sinceId` (and at most `maxId` when above 0) matching `condition`,
    /// newest first, each with its `messageId`; `end` when the inbox holds no more below the page.
    package func read(
        _ inbox: InboxKey, condition: Condition, sinceId: Int64, maxId: Int64, limit: Int, include: [FieldPath], caller: Caller
    ) async throws -> (statuses: [(status: StoredObject, entry: InboxEntry)], end: Bool) {
        let schema = try await objects.schema(of: Self.className)
        // The inbox lets its owner read its statuses whatever their ACLs, so they are read as the master; a sub-query
        // or a relation in the condition would then read other classes so too, and answer what the caller may not read.
        guard caller.isMaster || (condition.referencedClassNames.isEmpty && condition.relationOwners.isEmpty) else {
            throw APIError(.invalidQuery, "An inbox query's where may not hold sub-queries ($inQuery, $select, …) or $relatedTo.")
        }
        try await objects.authorizeNaming(Self.className, schema: schema, condition: condition, sorting: [], caller: caller)
        var found: [(status: StoredObject, entry: InboxEntry)] = []
        var below = maxId
        var end = false
        // Entries whose status the condition rejects are skipped; a page of entries at a time until the page is full.
        while found.count < limit, !end {
            let want = max(limit - found.count, condition == .always ? 0 : 100)
            let entries = try await objects.store.inbox(inbox, sinceId: sinceId, maxId: below, limit: want)
            end = entries.count < want
            guard let last = entries.last else { break }
            below = last.messageId - 1
            if below <= sinceId { end = true }
            let statuses = try await self.statuses(entries.map(\.statusId), condition: condition, schema: schema)
            for entry in entries where found.count < limit {
                if let status = statuses[entry.statusId] { found.append((status, entry)) }
            }
            if below == 0 { end = true }
        }
        var objects = found.map(\.status)
        for index in objects.indices { self.objects.visibility.redact(&objects[index], schema: schema, for: caller) }
        try await self.objects.includer(caller).expand(&objects, paths: include)
        return (zip(objects, found.map(\.entry)).map { ($0, $1) }, end)
    }

    /// The statuses with these ids that match `condition`, read as the inbox allows (whatever their ACL).
    private func statuses(_ ids: [String], condition: Condition, schema: ClassSchema?) async throws -> [String: StoredObject] {
        guard let schema, !ids.isEmpty else { return [:] }
        let byId = Condition.inList(FieldPath(field: "objectId"), ids.map(Value.string), negated: false)
        let found = try await objects.store.find(StorageQuery(
            className: Self.className, schema: schema, condition: condition == .always ? byId : .and([byId, condition]), limit: ids.count
        ))
        return Dictionary(found.map { ($0.objectId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `inboxType`: letters, digits and `_`.
    static func inboxType(_ text: String) throws(APIError) -> String {
        guard !text.isEmpty, text.utf8.count <= maximumInboxTypeLength,
            text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F })
        else { throw APIError(.invalidParameter, "'inboxType' is 1 to 64 letters, digits or '_'.") }
        return text
    }
}

/// The audience of a status: `{"className","where","keys"?}`. Each object found is an inbox's owner, or, with `keys`,
/// the object its pointer `keys` points to (`{"className":"_Follower","keys":"follower","where":{"user":me}}`).
struct Audience {
    let className: String
    let condition: Condition
    let key: String?

    init(_ query: JSON, limits: QueryLimits) throws(APIError) {
        guard case .object(let members) = query, case .string(let className)? = members["className"] else {
            throw APIError(.missingRequiredField, "A status names its audience: 'query' with a 'className'.")
        }
        try ClassName.validate(className)
        self.className = className == "User" ? "_User" : className
        var whereJSON = members["where"] ?? .object([:])
        if case .string(let text) = whereJSON {
            do { whereJSON = try JSONParser.parse(text) } catch { throw APIError(.invalidJSON, "The audience's 'where' is not JSON.") }
        }
        condition = try Condition(where: whereJSON, options: ConditionOptions(limits: limits))
        let keys = members["keys"]?.stringValue.map { $0.split(separator: ",").map(String.init) } ?? []
        guard keys.count <= 1 else { throw APIError(.invalidParameter, "The audience's 'keys' names one pointer field.") }
        key = keys.first
    }

    /// The inbox owner an object of the audience stands for.
    func owner(_ object: StoredObject) -> InboxOwner? {
        guard let key else { return InboxOwner(className: object.className, objectId: object.objectId) }
        return FriendRequestService.pointer(object.fields[key]).map { InboxOwner(className: $0.className, objectId: $0.objectId) }
    }
}
