package import CirrusModel
package import CirrusStorage
import Foundation

/// Writes a store's classes in the export format (see docs/export.md): `<Class>.jsonl`, `_Session.jsonl`,
/// `_Join:<field>:<Class>.jsonl`, `_schema.json`, `_File.jsonl` with `files/<key>`, and `manifest.json`; to a folder
/// or a `.tar.gz`. Objects are read in pages in objectId order (keyset pagination), so memory stays constant however
/// large a class is; the output appears complete or not at all (it is written beside and renamed at the end).
package struct Exporter: Sendable {
    package let store: any StorageAdapter
    /// Where file contents are read from; `nil` when none are to be written.
    package let files: (any FileStorage)?
    package let options: ExportOptions
    /// Progress lines for people.
    package let progress: @Sendable (String) -> Void

    package init(store: any StorageAdapter, files: (any FileStorage)?, options: ExportOptions, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.files = files
        self.options = options
        self.progress = progress
    }

    /// Whether `path` names an archive (`.tar.gz` or `.tgz`) rather than a folder.
    package static func isArchive(_ path: String) -> Bool {
        path.hasSuffix(".tar.gz") || path.hasSuffix(".tgz")
    }

    /// Exports to `output`: a `.tar.gz`/`.tgz` archive, or else a folder, which must not exist or be empty.
    /// - Throws: ``ExportError/outputExists(_:)``, store and file errors; nothing is left at `output` on failure.
    package func export(to path: String) async throws -> ExportSummary {
        var output = path
        while output.count > 1, output.hasSuffix("/") { output.removeLast() }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: output, isDirectory: &isDirectory) {
            let empty = isDirectory.boolValue && ((try? manager.contentsOfDirectory(atPath: output))?.isEmpty ?? false)
            guard empty, !Self.isArchive(output) else { throw ExportError.outputExists(output) }
        }
        let staging = output + ".partial-" + UUID().uuidString.prefix(8).lowercased()
        try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
        do {
            let summary = try await writeTree(into: staging)
            if Self.isArchive(output) {
                let archive = staging + ".tar.gz"
                do {
                    progress("packing \(output)")
                    try await ExportArchive.packOffPool(directory: staging, into: archive)
                    try manager.moveItem(atPath: archive, toPath: output)
                } catch {
                    try? manager.removeItem(atPath: archive)
                    throw error
                }
                try? manager.removeItem(atPath: staging)
            } else {
                if manager.fileExists(atPath: output) { try manager.removeItem(atPath: output) }
                try manager.moveItem(atPath: staging, toPath: output)
            }
            return summary
        } catch {
            try? manager.removeItem(atPath: staging)
            throw error
        }
    }

    /// Writes every file of the export into `directory` (which exists).
    package func writeTree(into directory: String) async throws -> ExportSummary {
        var summary = ExportSummary(exportedAt: .now())
        let all = try await checkedSchemas()
        // `_User` is read for its sessions even when only `_Session` is asked for.
        let schemas = all.filter { options.includes($0.className) || ($0.className == "_User" && options.includes("_Session")) }
        let schemaFile = try ExportFileWriter(path: directory + "/_schema.json")
        try schemaFile.write(JSONWriter.bytes(["results": .array(schemas.filter { options.includes($0.className) }.map(ExportEncoder.schema))]))
        try schemaFile.write([UInt8(ascii: "\n")])
        try schemaFile.close()
        if !options.onlySchema {
            for schema in schemas {
                try await exportObjects(of: schema, into: directory, summary: &summary)
            }
            for schema in schemas where options.includes(schema.className) {
                for (field, _) in ExportEncoder.relationFields(of: schema).sorted(by: { $0.key < $1.key }) {
                    try await exportMembers(of: schema.className, field: field, into: directory, summary: &summary)
                }
            }
        }
        let manifest = try ExportFileWriter(path: directory + "/manifest.json")
        try manifest.write(JSONWriter.bytes(summary.manifest))
        try manifest.write([UInt8(ascii: "\n")])
        try manifest.close()
        return summary
    }

    /// The classes of the store, in name order, `_Session` aside (sessions are read with their users).
    /// - Throws: ``APIError`` ``APIError/Reason/classNotFound`` when the export names a class the store lacks.
    package func checkedSchemas() async throws -> [ClassSchema] {
        let all = try await store.loadSchemas().filter { $0.className != "_Session" }.sorted { $0.className < $1.className }
        let known = Set(all.map(\.className)).union(["_Session", "_User"])
        let missing = (options.classes ?? []).subtracting(known).sorted()
        if !missing.isEmpty {
            throw APIError(.classNotFound, "No such class: \(missing.joined(separator: ", ")).")
        }
        return all
    }

    /// `<Class>.jsonl`, with `_Session.jsonl` beside `_User` and file contents beside `_File`.
    private func exportObjects(of schema: ClassSchema, into directory: String, summary: inout ExportSummary) async throws {
        let className = schema.className
        let relations = ExportEncoder.relationFields(of: schema)
        // Only `_Session` asked for: the users are read, not written.
        let skipsObjects = !options.includes(className)
        let writer = skipsObjects ? nil : try ExportFileWriter(path: directory + "/\(className).jsonl")
        var count = 0
        let sessions = className == "_User" ? try ExportFileWriter(path: directory + "/_Session.jsonl") : nil
        let withContents = className == "_File" && options.includeFiles && files != nil
        if withContents { try FileManager.default.createDirectory(atPath: directory + "/files", withIntermediateDirectories: true) }
        var after: String?
        while true {
            let page = try await store.find(pageQuery(schema, after: after))
            let accounts = sessions == nil ? nil : try await UserAccounts(store: store, userIds: page.map(\.objectId))
            for object in page {
                var line = ExportEncoder.encode(object, relationFields: relations)
                if let sessions, let accounts {
                    try accounts.add(object.objectId, to: &line, sessions: sessions)
                }
                if className == "_File" {
                    if line["url"] == nil, let base = options.fileURLBase, let key = line["key"]?.stringValue { line["url"] = .string(base + "/" + key) }
                    if withContents, let key = object.fields["key"]?.stringValue {
                        if try await copyContent(key: key, into: directory) { summary.files += 1 } else { summary.filesWithoutContent += 1 }
                    }
                }
                try writer?.writeLine(.object(line))
                count += 1
            }
            guard page.count == options.pageSize, let last = page.last else { break }
            after = last.objectId
            progress("\(className): \(count) objects")
        }
        if let writer {
            try writer.close()
            summary.classes[className] = count
            progress("\(className): \(count) objects, done")
        }
        if let sessions {
            try sessions.close()
            summary.classes["_Session"] = sessions.lines
        }
    }

    /// A page of a class in objectId order after `after`, within the export's `updatedAt` window, read as the master.
    private func pageQuery(_ schema: ClassSchema, after: String?) -> StorageQuery {
        var parts: [Condition] = []
        if let after { parts.append(.compare(FieldPath(field: "objectId"), .greaterThan, .string(after))) }
        if let from = options.from { parts.append(.compare(FieldPath(field: "updatedAt"), .greaterThanOrEqual, .date(from))) }
        if let to = options.to { parts.append(.compare(FieldPath(field: "updatedAt"), .lessThan, .date(to))) }
        return StorageQuery(
            className: schema.className, schema: schema, condition: .all(parts), order: [SortKey(path: FieldPath(field: "objectId"))],
            limit: options.pageSize, readers: nil
        )
    }

    /// `files/<key>`, read from the file storage in pieces; false when the storage has no such content.
    private func copyContent(key: String, into directory: String) async throws -> Bool {
        guard let files, FileKey.isValid(key) else { return false }
        let piece = 4 * 1024 * 1024
        guard let first = try await files.read(key: key, range: 0..<piece) else { return false }
        let writer = try ExportFileWriter(path: directory + "/files/" + key)
        try writer.write(first.bytes)
        var offset = first.bytes.count
        while offset < first.totalSize {
            guard let next = try await files.read(key: key, range: offset..<(offset + piece)), !next.bytes.isEmpty else {
                try writer.close()
                throw ExportError.fileContentMissing(key: key)
            }
            try writer.write(next.bytes)
            offset += next.bytes.count
        }
        try writer.close()
        return true
    }

    /// `_Join:<field>:<Class>.jsonl`: `{"owningId","relatedId"}` per member, in (owner, related) order.
    private func exportMembers(of className: String, field: String, into directory: String, summary: inout ExportSummary) async throws {
        let name = "_Join:\(field):\(className).jsonl"
        let writer = try ExportFileWriter(path: directory + "/" + name)
        var after: RelationMember?
        while true {
            let page = try await store.relationMembers(ownerClass: className, field: field, after: after, limit: options.pageSize)
            for member in page {
                try writer.writeLine(["owningId": .string(member.owningId), "relatedId": .string(member.relatedId)])
            }
            guard page.count == options.pageSize, let last = page.last else { break }
            after = last
        }
        try writer.close()
        summary.joins[name] = writer.lines
        progress("\(name): \(writer.lines) members")
    }
}

/// The stored passwords and sessions of one page of users, read in two statements.
struct UserAccounts {
    let passwords: [String: String]
    let sessions: [String: [StoredSession]]

    init(store: any StorageAdapter, userIds: [String]) async throws {
        passwords = try await store.passwords(userIds: userIds)
        sessions = Dictionary(grouping: try await store.sessions(userIds: userIds), by: \.userId)
    }

    /// A user's password columns (`password`+`salt`, `bcryptPassword` or `scryptPassword`) and stable session token on
    /// its line; its revocable sessions as `_Session` lines.
    func add(_ userId: String, to line: inout [String: JSON], sessions writer: ExportFileWriter) throws {
        for (key, value) in ExportEncoder.passwordColumns(passwords[userId]) { line[key] = value }
        for session in sessions[userId] ?? [] {
            switch session.kind {
            case .stable: line["sessionToken"] = .string(session.token)
            case .revocable: try writer.writeLine(.object(ExportEncoder.session(session)))
            }
        }
    }
}
