package import CirrusModel
package import CirrusStorage

/// A ``StorageAdapter`` that keeps everything in memory: for tests of the services that need no database.
///
/// It passes the storage conformance suite as the SQL stores do. Conditions are evaluated by the model's evaluator
/// (`Condition.matches(_:resolver:)`), field operations by `FieldOperation.apply(to:)`; the store answers sub-queries
/// and relations itself (``InMemoryResolver``). The state is one value behind an actor: a batch of writes changes a
/// copy, which replaces the state only when the batch commits.
package actor InMemoryStore: StorageAdapter {
    private var state = InMemoryState() {
        // A committed state hands its writes' changes to the change log, in commit order (the actor runs one at a time).
        didSet {
            guard !state.pendingChanges.isEmpty else { return }
            changeLog.append(state.pendingChanges)
            state.pendingChanges = []
        }
    }
    package nonisolated let changeLog = ChangeLog(position: ChangeLog.clockPosition())

    package func append(_ records: [ChangeRecord]) async throws {
        changeLog.append(records)
    }

    // MARK: Cloud code's registrations

    private var registrations: [CloudRegistration.Kind: [String: CloudRegistration]] = [:]
    private var runs: [JobRun] = []

    package func registrations(kind: CloudRegistration.Kind) async throws -> [CloudRegistration] {
        (registrations[kind] ?? [:]).values.sorted { $0.name < $1.name }
    }

    package func addRegistration(_ registration: CloudRegistration) async throws -> Bool {
        guard registrations[registration.kind]?[registration.name] == nil else { return false }
        registrations[registration.kind, default: [:]][registration.name] = registration
        return true
    }

    package func replaceRegistration(_ registration: CloudRegistration) async throws -> Bool {
        guard registrations[registration.kind]?[registration.name] != nil else { return false }
        registrations[registration.kind]?[registration.name] = registration
        return true
    }

    package func deleteRegistration(kind: CloudRegistration.Kind, name: String) async throws -> Bool {
        guard registrations[kind]?.removeValue(forKey: name) != nil else { return false }
        if kind == .job { runs.removeAll { $0.job == name } }
        return true
    }

    package func startJobRun(
        name: String, claiming: (due: Timestamp, next: Timestamp?)?, scheduledAt: Timestamp, startedAt: Timestamp
    ) async throws -> Int64? {
        guard let job = registrations[.job]?[name] else { return nil }
        if let claiming {
            guard job.dueAt == claiming.due else { return nil }
            registrations[.job]?[name]?.dueAt = claiming.next
        }
        let id = (runs.map(\.id).max() ?? 0) + 1
        runs.append(JobRun(id: id, job: name, scheduledAt: scheduledAt, startedAt: startedAt))
        let mine = runs.filter { $0.job == name }.map(\.id).sorted(by: >)
        let dropped = Set(mine.dropFirst(JobRun.kept))
        runs.removeAll { dropped.contains($0.id) }
        return id
    }

    package func finishJobRun(id: Int64, succeeded: Bool, detail: String, finishedAt: Timestamp) async throws {
        guard let index = runs.firstIndex(where: { $0.id == id }) else { return }
        runs[index].finishedAt = finishedAt
        runs[index].succeeded = succeeded
        runs[index].detail = detail
    }

    package func jobRuns(name: String, limit: Int) async throws -> [JobRun] {
        Array(runs.filter { $0.job == name }.sorted { $0.id > $1.id }.prefix(limit))
    }

    // MARK: Pushes

    private var pushRecords: [StoredPush] = []
    private var pushLeases: [String: Timestamp] = [:]

    package func addPush(_ push: StoredPush, dedupeSince: Timestamp) async throws -> (push: StoredPush, added: Bool) {
        if let requestId = push.requestId, let earlier = pushRecords.first(where: { $0.requestId == requestId && $0.createdAt >= dedupeSince }) {
            return (earlier, false)
        }
        var added = push
        added.serial = (pushRecords.map(\.serial).max() ?? 0) + 1
        pushRecords.append(added)
        return (added, true)
    }

    package func claimPush(now: Timestamp, leaseUntil: Timestamp) async throws -> StoredPush? {
        let due = pushRecords.indices.filter { index in
            let push = pushRecords[index]
            let free = pushLeases[push.objectId].map { $0 < now } ?? true
            return [.scheduled, .sending].contains(push.status) && push.pushTime <= now && free
        }.min { (pushRecords[$0].pushTime, pushRecords[$0].serial) < (pushRecords[$1].pushTime, pushRecords[$1].serial) }
        guard let index = due else { return nil }
        pushRecords[index].status = .sending
        pushRecords[index].updatedAt = now
        pushLeases[pushRecords[index].objectId] = leaseUntil
        return pushRecords[index]
    }

    package func recordPushPage(objectId: String, cursor: String, sent: Int, failed: Int, invalid: Int, leaseUntil: Timestamp) async throws {
        guard let index = pushRecords.firstIndex(where: { $0.objectId == objectId }) else { return }
        pushRecords[index].cursor = cursor
        pushRecords[index].sent += sent
        pushRecords[index].failed += failed
        pushRecords[index].invalid += invalid
        pushRecords[index].updatedAt = .now()
        pushLeases[objectId] = leaseUntil
    }

    package func finishPush(objectId: String, status: StoredPush.Status, at time: Timestamp) async throws {
        guard let index = pushRecords.firstIndex(where: { $0.objectId == objectId }) else { return }
        pushRecords[index].status = status
        pushRecords[index].updatedAt = time
        pushLeases[objectId] = nil
    }

    package func push(objectId: String) async throws -> StoredPush? {
        pushRecords.first { $0.objectId == objectId }
    }

    package func pushes(statuses: [StoredPush.Status], limit: Int) async throws -> [StoredPush] {
        Array(pushRecords.filter { statuses.contains($0.status) }.sorted { $0.serial > $1.serial }.prefix(limit))
    }

    package func cancelPush(serial: Int64, at time: Timestamp) async throws -> Bool {
        guard let index = pushRecords.firstIndex(where: { $0.serial == serial && $0.status == .scheduled }) else { return false }
        pushRecords[index].status = .cancelled
        pushRecords[index].updatedAt = time
        return true
    }

    // MARK: Inboxes

    package func deliver(statusId: String, to owners: [InboxOwner], type: String) async throws {
        for owner in Set(owners).sorted() {
            let key = InboxKey(owner: owner, type: type)
            let number = (state.inboxCounters[key] ?? 0) + 1
            state.inboxCounters[key] = number
            state.inboxEntries[key, default: []].append(InboxEntry(messageId: number, statusId: statusId, unread: true))
        }
    }

    package func inbox(_ inbox: InboxKey, sinceId: Int64, maxId: Int64, limit: Int) async throws -> [InboxEntry] {
        let entries = (state.inboxEntries[inbox] ?? []).filter { $0.messageId > sinceId && (maxId <= 0 || $0.messageId <= maxId) }
        return Array(entries.sorted { $0.messageId > $1.messageId }.prefix(limit))
    }

    package func inboxCount(_ inbox: InboxKey) async throws -> (total: Int, unread: Int) {
        let entries = state.inboxEntries[inbox] ?? []
        return (entries.count, entries.filter(\.unread).count)
    }

    package func markInboxRead(_ inbox: InboxKey) async throws {
        guard let entries = state.inboxEntries[inbox] else { return }
        state.inboxEntries[inbox] = entries.map { InboxEntry(messageId: $0.messageId, statusId: $0.statusId, unread: false) }
    }

    package func removeInboxEntry(_ inbox: InboxKey, messageId: Int64) async throws -> Bool {
        guard let index = state.inboxEntries[inbox]?.firstIndex(where: { $0.messageId == messageId }) else { return false }
        state.inboxEntries[inbox]?.remove(at: index)
        return true
    }

    // MARK: Search

    /// The model's matcher over the objects' tokens (no index: the in-memory store reads every object), newest first
    /// unless ordered.
    package func search(_ search: StorageSearch) async throws -> (hits: Int, objects: [StoredObject]) {
        let candidates = state.matching(StorageQuery(className: search.className, schema: search.schema, condition: .always, readers: search.readers))
        var targets: [SearchTerm: SearchTermTarget] = [:]
        for case .term(let term) in search.query.leaves {
            targets[term] = try term.target(searchFields: search.visibleFields, otherFields: search.otherFields)
        }
        let resolver = InMemoryResolver(state: state, readers: search.readers)
        let conditions = SchemaConditions(state: state, className: search.className, schema: search.schema)
        let found = candidates.filter { object in
            search.query.evaluate { leaf in
                switch leaf {
                case .term(let term):
                    switch targets[term] {
                    case .text(let searched)?:
                        return searched.contains { SearchMatcher.matches(term, in: SearchTokenizer.tokens(of: object.fields[$0])) }
                    case .exact(let condition)?: return conditions.rewrite(condition).matches(object.subject, resolver: resolver)
                    case nil: return false
                    }
                case .range(let range): return conditions.rewrite(range.condition).matches(object.subject, resolver: resolver)
                case .exists(let path): return conditions.rewrite(.exists(path, true)).matches(object.subject, resolver: resolver)
                }
            }
        }
        if let near = search.near {
            let nearest = ObjectOrdering(schema: search.schema).sorted(found, by: [], condition: .near(near.path, near.point, maximumDistance: nil, minimumDistance: nil))
            let ordered = near.descending ? nearest.reversed() : nearest
            return (found.count, Array(ordered.dropFirst(search.skip).prefix(search.limit)))
        }
        let order = search.order.isEmpty ? [SortKey(path: FieldPath(field: "createdAt"), descending: true)] : search.order
        let ordered = ObjectOrdering(schema: search.schema).sorted(found, by: order, condition: .always)
        return (found.count, Array(ordered.dropFirst(search.skip).prefix(search.limit)))
    }

    /// Nothing to build (searches read the objects); the count a store's rebuild would index.
    package func rebuildSearchIndex(className: String, fields: [String]?) async throws -> Int {
        fields == nil ? 0 : state.objects(of: className).count
    }

    // MARK: LiveQuery subscriptions

    private var liveSubscriptions: [String: StoredLiveSubscription] = [:]

    package func saveLiveSubscription(_ subscription: StoredLiveSubscription, now: Timestamp) async throws {
        liveSubscriptions = liveSubscriptions.filter { $0.value.clientId != subscription.clientId || $0.value.expiresAt >= now }
        liveSubscriptions[subscription.queryId] = subscription
    }

    package func deleteLiveSubscription(queryId: String, clientId: String) async throws -> Bool {
        guard liveSubscriptions[queryId]?.clientId == clientId else { return false }
        liveSubscriptions[queryId] = nil
        return true
    }

    package func liveSubscriptions(clientId: String, now: Timestamp) async throws -> [StoredLiveSubscription] {
        liveSubscriptions.values.filter { $0.clientId == clientId && $0.expiresAt >= now }.sorted { $0.queryId < $1.queryId }
    }

    package func renewLiveSubscription(queryId: String, clientId: String, until expiresAt: Timestamp) async throws -> Bool {
        guard liveSubscriptions[queryId]?.clientId == clientId else { return false }
        liveSubscriptions[queryId]?.expiresAt = expiresAt
        return true
    }

    // MARK: After-hook calls

    package func claimHookCalls(now: Timestamp, leaseUntil: Timestamp, limit: Int) async throws -> [QueuedHookCall] {
        var claimed: [QueuedHookCall] = []
        var seen: Set<[String]> = []
        for call in state.hookCalls where claimed.count < limit {
            // An object's earliest queued call is its only candidate.
            guard seen.insert([call.className, call.objectId]).inserted else { continue }
            guard let due = state.hookCallDue[call.id], due.millisecondsSince1970 <= now.millisecondsSince1970 else { continue }
            state.hookCallDue[call.id] = leaseUntil
            claimed.append(call)
        }
        return claimed
    }

    package func finishHookCall(id: Int64) async throws {
        state.hookCalls.removeAll { $0.id == id }
        state.hookCallDue[id] = nil
    }

    package func retryHookCall(id: Int64, attempts: Int, dueAt: Timestamp) async throws {
        guard let index = state.hookCalls.firstIndex(where: { $0.id == id }) else { return }
        state.hookCalls[index].attempts = attempts
        state.hookCallDue[id] = dueAt
    }

    package init() {}

    package func prepare() async throws {}

    package func close() async throws {}

    // MARK: Objects

    package func perform(_ commands: [WriteCommand], atomically: Bool) async throws -> [Result<WriteResult, StorageError>] {
        atomically ? performAtomically(commands) : commands.map { performAlone($0) }
    }

    /// Runs the commands on a copy of the state, kept only when every one succeeds.
    private func performAtomically(_ commands: [WriteCommand]) -> [Result<WriteResult, StorageError>] {
        var copy = state
        var results: [Result<WriteResult, StorageError>] = []
        for command in commands {
            let result = copy.run(command)
            results.append(result)
            guard case .success = result else {
                let rolledBack = Result<WriteResult, StorageError>.failure(.rolledBack)
                return results.map { if case .success = $0 { rolledBack } else { $0 } }
                    + Array(repeating: rolledBack, count: commands.count - results.count)
            }
        }
        state = copy
        return results
    }

    /// Runs one command on a copy of the state, kept only when it succeeds.
    private func performAlone(_ command: WriteCommand) -> Result<WriteResult, StorageError> {
        var copy = state
        let result = copy.run(command)
        if case .success = result { state = copy }
        return result
    }

    package func fetch(className: String, ids: [String]) async throws -> [StoredObject] {
        let entries = state.classes[className]?.entries ?? [:]
        return Set(ids).compactMap { entries[$0]?.object }
    }

    package func fetch(_ pointers: [Pointer], readers: [String]?) async throws -> [StoredObject] {
        Set(pointers).compactMap { pointer in
            state.classes[pointer.className]?.entries[pointer.objectId]?.object
        }.filter { $0.grants(.read, to: readers) }
    }

    package func aggregate(_ request: StorageAggregation) async throws -> [JSON] {
        guard state.classes[request.query.className] != nil else { return [] }
        let objects = state.matching(request.query)
        return InMemoryAggregator(request: request).rows(of: objects)
    }

    package func find(_ query: StorageQuery) async throws -> [StoredObject] {
        try state.checkTextSearchable(query.condition, in: query.className, schema: query.schema)
        return query.ranksText ? try state.findRanked(query) : state.find(query)
    }

    /// The in-memory store reads every object of the class.
    package func queryPlan(for query: StorageQuery) async throws -> [String] {
        ["in memory: every object of \(query.className) is read"]
    }

    package func count(_ query: StorageQuery) async throws -> Int {
        try state.checkTextSearchable(query.condition, in: query.className, schema: query.schema)
        return state.matching(query).count
    }

    package func relationTargets(className: String, objectId: String, field: String) async throws -> [Pointer] {
        state.relationTargets(className, objectId, field)
    }

    package func relationMembers(ownerClass: String, field: String, after: RelationMember?, limit: Int) async throws -> [RelationMember] {
        let members = state.relations.filter { $0.ownerClass == ownerClass && $0.field == field }
            .map { RelationMember(owningId: $0.ownerId, relatedId: $0.target.objectId) }
            .sorted { ($0.owningId, $0.relatedId) < ($1.owningId, $1.relatedId) }
        let following = after.map { last in members.filter { ($0.owningId, $0.relatedId) > (last.owningId, last.relatedId) } } ?? members
        return Array(following.prefix(max(limit, 0)))
    }

    // MARK: Schema

    package func loadSchemas() async throws -> [ClassSchema] {
        state.classes.values.map(\.schema).sorted { $0.className < $1.className }
    }

    package func loadSchema(of className: String) async throws -> ClassSchema? {
        state.classes[className]?.schema
    }

    package func defineClass(_ className: String, newFields: [String: FieldType], options: ClassOptions?) async throws -> ClassSchema {
        var copy = state
        try copy.register(newFields, in: className)
        if let options { copy.classes[className]?.schema.options = options }
        state = copy
        return copy.classes[className]?.schema ?? ClassSchema(className: className)
    }

    package func deleteFields(className: String, fields: [String]) async throws {
        try state.deleteFields(className: className, fields: fields)
    }

    package func deleteClass(className: String) async throws {
        guard let stored = state.classes[className] else { throw StorageError.classNotFound(className) }
        guard stored.entries.isEmpty else { throw StorageError.classNotEmpty(count: stored.entries.count) }
        state.classes[className] = nil
        changeLog.append([.classDeleted(className)])
    }

    package func ensureIndex(className: String, path: FieldPath) async throws {
        guard state.classes[className] != nil else {
            throw StorageError.database("cannot index \(className).\(path): the class does not exist")
        }
    }

    package func dropIndex(className: String, path: FieldPath) async throws {
        guard state.classes[className] != nil else { throw StorageError.classNotFound(className) }
    }

    // MARK: Accounts

    package func account(userId: String) async throws -> StoredAccount? {
        state.accounts[userId]
    }

    package func session(token: String) async throws -> StoredSession? {
        state.sessions[token]
    }

    package func sessions(userId: String) async throws -> [StoredSession] {
        state.sessions(of: [userId])
    }

    package func passwords(userIds: [String]) async throws -> [String: String] {
        Set(userIds).reduce(into: [:]) { passwords, id in passwords[id] = state.accounts[id]?.password }
    }

    package func sessions(userIds: [String]) async throws -> [StoredSession] {
        state.sessions(of: userIds)
    }

    package func roleNames(userId: String) async throws -> [String] {
        state.roleNames(userId: userId)
    }

    package func linkedUser(platform: String, uid: String) async throws -> StoredObject? {
        state.linkedUser(platform: platform, uid: uid)
    }

    package func user(email: String) async throws -> StoredObject? {
        state.user(email: email)
    }

    package func caseDuplicateEmails(limit: Int) async throws -> [String] {
        Array(state.caseDuplicateEmails().prefix(max(limit, 0)))
    }

    package func code(purpose: String, target: String) async throws -> StoredCode? {
        state.codes[InMemoryState.CodeKey(purpose: purpose, target: target)]
    }

    package func codes(purpose: String, code: String) async throws -> [StoredCode] {
        state.codes.values.filter { $0.purpose == purpose && $0.code == code }.sorted { $0.createdAt > $1.createdAt }
    }

    package func sendCount(target: String, since: Timestamp) async throws -> Int {
        (state.sends[target] ?? []).filter { $0 >= since }.count
    }
}
