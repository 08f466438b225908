import CirrusModel

/// Saves objects: new objects they point to first (files uploaded, objects in batches, level by level), then the
/// objects themselves.
struct ObjectSaver {
    let application: LCApplication

    private var client: RESTClient { RESTClient(application: application) }

    /// Saves `object` with one request, after the new objects it points to.
    /// - Throws: what ``LCObject/validateBeforeSaving()`` of any of them throws, before any request.
    func save(_ object: LCObject, options: [LCObject.SaveOption]) async throws {
        let all = dependencies(of: [object])
        try Self.validate(all)
        giveDefaultACL(all)
        try await saveNewUsers(all.filter { $0 !== object })
        try await saveInLevels(all.filter { $0 !== object })
        try await saveOne(object, options: options)
    }

    /// Saves `objects` and the new objects they point to, with as few batch requests as the references allow;
    /// `options` apply to the sub-requests of `objects` (not of the new objects saved before them).
    func save(_ objects: [LCObject], options: [LCObject.SaveOption] = []) async throws {
        let all = dependencies(of: objects)
        try Self.validate(all)
        giveDefaultACL(all)
        try await saveNewUsers(all.filter { object in !objects.contains { $0 === object } })
        try await saveInLevels(all) { object in objects.contains { $0 === object } ? options : [] }
    }

    /// One object alone: `POST` for a new one, `PUT` for an existing one with changes, nothing otherwise
    /// (``LCObject/saveRequest(_:)``).
    func saveOne(_ object: LCObject, options: [LCObject.SaveOption]) async throws {
        try Self.checkNotQueued([object])
        if let file = object as? LCFile, file.objectId == nil {
            return try await file.upload(progress: nil)
        }
        guard object.hasDataToUpload else { return }
        let operations = object.takeOperations()
        let request = object.saveRequest(operations)
        let reply: JSON
        do {
            reply = try await client.send(
                request.method, request.path, query: options.parameters, body: request.body, session: object.sessionForWrites
            )
        } catch {
            object.restoreOperations(operations)
            throw error
        }
        object.didSave(reply)
    }

    /// Signs up the new users among `dependencies` one by one (`POST /1.1/users`): an automatic user
    /// (``LCUser/enableAutomaticUser(application:)``) is created by the first save of an object pointing to it, and
    /// its reply's session token makes it the logged-in current user.
    private func saveNewUsers(_ dependencies: [LCObject]) async throws {
        for user in dependencies where user is LCUser && user.objectId == nil {
            try await saveOne(user, options: [])
        }
    }

    /// Gives the app's default ACL (``LCACL/setDefault(_:withAccessForCurrentUser:application:)``) to the new objects
    /// that have none; users, installations and files keep the server's defaults.
    func giveDefaultACL(_ objects: [LCObject]) {
        guard let defaults = application.defaultACL else { return }
        for object in objects where object.objectId == nil && object.ACL == nil {
            guard !(object is LCUser || object is LCInstallation || object is LCFile) else { continue }
            object.ACL = defaults.acl(for: application.currentUser)
        }
    }

    /// Checks each object that has something to save (``LCObject/validateBeforeSaving()``).
    private static func validate(_ objects: [LCObject]) throws {
        try checkNotQueued(objects)
        for object in objects where object.hasDataToUpload { try object.validateBeforeSaving() }
    }

    /// Refuses to create an object whose creation waits in the offline queue: it would be created twice.
    static func checkNotQueued(_ objects: [LCObject]) throws {
        for object in objects where object.objectId == nil && object.localId != nil {
            throw LCError.inconsistency("This \(object.className) waits in the offline queue to be created: save it with saveEventually().")
        }
    }

    /// `roots` and every new object reachable from them through pending operations, each once.
    private func dependencies(of roots: [LCObject]) -> [LCObject] {
        var found: [LCObject] = []
        var queue = roots
        while let next = queue.first {
            queue.removeFirst()
            guard !found.contains(where: { $0 === next }) else { continue }
            found.append(next)
            queue.append(contentsOf: next.unsavedReferences())
        }
        return found
    }

    /// Uploads new files, then saves the others in levels: each level holds the objects whose new references are
    /// all saved, in one batch request.
    private func saveInLevels(
        _ objects: [LCObject], options: (LCObject) -> [LCObject.SaveOption] = { _ in [] }
    ) async throws {
        for file in objects.compactMap({ $0 as? LCFile }) where file.objectId == nil {
            try await file.upload(progress: nil)
        }
        var remaining = objects.filter { !($0 is LCFile) && $0.hasDataToUpload }
        while !remaining.isEmpty {
            let level = remaining.filter { object in object.unsavedReferences().allSatisfy { $0 === object } }
            guard !level.isEmpty else { throw LCError.inconsistency("New objects point to each other; save one of them first.") }
            try await BatchRequest(application: application).save(level, options: level.map(options))
            remaining.removeAll { object in level.contains { $0 === object } }
        }
    }
}

/// The method, path (after `/1.1`) and body of one object's save.
struct SaveRequest {
    let method: String
    let path: String
    let body: JSON
}
