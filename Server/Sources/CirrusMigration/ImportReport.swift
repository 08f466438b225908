import CirrusModel
import Foundation

/// The report file: one JSON line per failure (`file`, `line`, `class`, `objectId` when known, `reason`), and one
/// per user who must reset their password (`"kind":"passwordReset"`). Lines are appended and flushed as they come,
/// so a killed import leaves a usable report.
final class ImportReport {
    private let handle: FileHandle?
    let path: String?

    init(path: String?) throws {
        self.path = path
        guard let path else {
            handle = nil
            return
        }
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw ImportError.unreadable(path) }
        _ = try handle.seekToEnd()
        self.handle = handle
    }

    deinit { try? handle?.close() }

    func failure(file: String, line: Int?, className: String, objectId: String?, reason: String) {
        var members: [String: JSON] = ["kind": "failure", "file": .string(file), "class": .string(className), "reason": .string(reason)]
        if let line { members["line"] = .int(Int64(line)) }
        if let objectId { members["objectId"] = .string(objectId) }
        write(.object(members))
    }

    func passwordReset(file: String, line: Int, objectId: String, username: String?) {
        var members: [String: JSON] = [
            "kind": "passwordReset", "file": .string(file), "line": .int(Int64(line)), "class": "_User", "objectId": .string(objectId),
            "reason": "The export has no password for this user: they must reset their password.",
        ]
        if let username { members["username"] = .string(username) }
        write(.object(members))
    }

    private func write(_ value: JSON) {
        guard let handle else { return }
        handle.write(Data(JSONWriter.bytes(value) + [UInt8(ascii: "\n")]))
    }
}
