import CirrusModel
import CirrusTesting
import Foundation

/// An export written by a test: files of JSON lines, JSON documents or raw text in a temporary folder.
struct ExportFixture {
    let directory: TemporaryDirectory
    var path: String { directory.path + "/export" }

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/export", withIntermediateDirectories: true)
    }

    func lines(_ name: String, _ rows: [JSON]) throws {
        try text(name, rows.map(JSONWriter.string).joined(separator: "\n") + "\n")
    }

    func document(_ name: String, _ value: JSON) throws {
        try text(name, JSONWriter.string(value))
    }

    func text(_ name: String, _ content: String) throws {
        let url = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(content.utf8).write(to: url)
    }

    /// The folder as a `.tar.gz`, made by the system's tar.
    func archive() throws -> String {
        let output = directory.path + "/export.tar.gz"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        process.arguments = ["-czf", output, "-C", path, "."]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError("tar failed") }
        return output
    }

    var statePath: String { directory.path + "/import.state" }
    var reportPath: String { directory.path + "/import.report.jsonl" }

    /// The report's lines.
    func report() throws -> [JSON] {
        guard let data = FileManager.default.contents(atPath: reportPath) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try JSONParser.parse(String($0)) }
    }

    func remove() { directory.remove() }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The LeanCloud export documentation's hash vector: salt and `base64(SHA-512^513(salt‖"password"))`.
enum LeanCloudVector {
    static let salt = "h60d8x797d3oa0naxybxxv9bn7xpt2yiowz68mpiwou7gwr2"
    static let hash = "tA7BLW+NK0UeARng0693gCaVnljkglCB9snqlpCSUKjx2RgYp8VZZOQt0S5iUtlDrkJXfT3gknS4rRqjYsd/Ug=="
}
