package import CirrusModel
package import CirrusStorage

/// Installations (`_Installation`): the devices an app can push to. A device registers by `POST`, again at every
/// launch (LeanCloud's Swift SDK always posts, updates included), so a save is an upsert: it updates the installation
/// with the same `objectId`, `installationId` or `deviceToken` (in that order), and creates one only for a new device.
/// Parse's rules apply: an installation names a `deviceToken` or an `installationId` (135), has a `deviceType` when it
/// is created (135), and an update by id does not change those three (136); 64-hex ids are lower-cased. Other
/// installations holding a device's token are removed when the device saves, so one device gets one notification.
package struct InstallationService: Sendable {
    let objects: ObjectService

    package init(objects: ObjectService) {
        self.objects = objects
    }

    /// A save's outcome: the installation, and whether it is new.
    package struct Saved: Sendable {
        package var object: StoredObject
        package var created: Bool
    }

    static let className = "_Installation"

    /// Creates the installation of a new device, or updates the device's installation.
    /// - Throws: ``APIError``: ``APIError/Reason/missingRequiredField``, ``APIError/Reason/immutableField``, or what a
    ///   create or update refuses (the installation's ACL applies to the caller as for any object).
    package func save(_ body: JSON, options: WriteOptions, caller: Caller) async throws -> Saved {
        var members = try Self.normalized(body)
        let objectId = members.removeValue(forKey: "objectId")?.stringValue
        for key in ["createdAt", "updatedAt", "className", "__internalId", "__type"] { members[key] = nil }
        guard Self.text(members["deviceToken"]) != nil || Self.text(members["installationId"]) != nil else {
            throw APIError(.missingRequiredField, "At least one ID field (deviceToken, installationId) must be specified in this operation.")
        }
        let matches = try await existing(objectId: objectId, members: members)
        guard let target = matches.first else {
            guard Self.text(members["deviceType"]) != nil else {
                throw APIError(.missingRequiredField, "deviceType must be specified in this operation.")
            }
            do {
                return Saved(object: try await objects.create(Self.className, body: .object(members), options: options, caller: caller), created: true)
            } catch let error as APIError where error.reason == .duplicateValue {
                // Another save of the same device won the race: this one updates what it created.
                guard let winner = try await existing(objectId: nil, members: members).first else { throw error }
                return Saved(object: try await update(winner, with: members, options: options, caller: caller), created: false)
            }
        }
        if let stored = Self.text(target.fields["deviceType"]), let sent = Self.text(members["deviceType"]), stored != sent {
            throw APIError(.immutableField, "deviceType may not be changed in this operation.")
        }
        let saved = try await update(target, with: members, options: options, caller: caller)
        try await removeOthers(holding: saved, except: target.objectId)
        return Saved(object: saved, created: false)
    }

    /// `PUT /installations/<id>`: an update that may not change the installation's `deviceToken`, `installationId` or
    /// `deviceType` once set (136).
    package func update(objectId: String, body: JSON, options: WriteOptions, caller: Caller) async throws -> UpdateOutcome {
        let members = try Self.normalized(body)
        if let stored = try await objects.store.fetch(className: Self.className, ids: [objectId]).first {
            for key in ["installationId", "deviceToken", "deviceType"] {
                if let sent = members[key], case .string(let new) = sent, let old = Self.text(stored.fields[key]), old != new {
                    throw APIError(.immutableField, "\(key) may not be changed in this operation.")
                }
            }
        }
        return try await objects.update(Self.className, objectId: objectId, body: .object(members), condition: nil, options: options, caller: caller)
    }

    /// The installations a save addresses: the one with its `objectId`, else with its `installationId`, else with its
    /// `deviceToken`; several when duplicates exist (the first is the one to keep).
    func existing(objectId: String?, members: [String: JSON]) async throws -> [StoredObject] {
        if let objectId, let found = try await objects.store.fetch(className: Self.className, ids: [objectId]).first { return [found] }
        for key in ["installationId", "deviceToken"] {
            guard let value = Self.text(members[key]) else { continue }
            let found = try await find(key, equals: value)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Installations whose `field` is `value`, oldest first (read as the master: a device finds its own installation
    /// whatever its ACL, and the update that follows is the caller's).
    func find(_ field: String, equals value: String, limit: Int = 10) async throws -> [StoredObject] {
        guard let schema = try await objects.schema(of: Self.className) else { return [] }
        let condition = Condition.compare(FieldPath(field: field), .equal, .string(value))
        let query = StorageQuery(className: Self.className, schema: schema, condition: condition, order: [SortKey(path: FieldPath(field: "createdAt"), descending: false)], limit: limit)
        return try await objects.store.find(query)
    }

    private func update(_ target: StoredObject, with members: [String: JSON], options: WriteOptions, caller: Caller) async throws -> StoredObject {
        try await objects.update(Self.className, objectId: target.objectId, body: .object(members), condition: nil, options: options, caller: caller).object
    }

    /// Removes the other installations holding `saved`'s device token (one device, one notification).
    private func removeOthers(holding saved: StoredObject, except keep: String) async throws {
        guard let token = Self.text(saved.fields["deviceToken"]) else { return }
        let others = try await find("deviceToken", equals: token, limit: 100).map(\.objectId).filter { $0 != keep && $0 != saved.objectId }
        guard !others.isEmpty else { return }
        try await objects.delete(Self.className, objectIds: others, condition: nil, caller: .master)
    }

    /// The body as an object, its 64-hex `deviceToken` and `installationId` lower-cased, the ids checked.
    static func normalized(_ body: JSON) throws(APIError) -> [String: JSON] {
        guard case .object(var members) = body else { throw APIError(.invalidJSON, "An installation is a JSON object.") }
        for key in DeviceIdentifier.fields {
            guard let value = members[key], value != .null else { continue }
            guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= 512,
                text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else {
                throw APIError(.invalidParameter, "\(key) must be a string of 1 to 512 printable characters without spaces.")
            }
            members[key] = .string(DeviceIdentifier.canonical(text))
        }
        if let type = members["deviceType"], type != .null {
            guard case .string(let text) = type, !text.isEmpty, text.utf8.count <= 32 else {
                throw APIError(.invalidParameter, "deviceType must be a short string (ios, android, …).")
            }
        }
        return members
    }

    static func text(_ value: JSON?) -> String? {
        guard case .string(let text)? = value, !text.isEmpty else { return nil }
        return text
    }
}
