@testable import CirrusSQLite
import CirrusModel
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

@Suite("cirrus import")
struct ImportCommandTests {
    @Test("cirrus import killed with SIGKILL midway and run again imports every object exactly once, and the summaries add up")
    func killedAndResumed() async throws {
        try await Sandbox.with { sandbox in
            let total = 20_000
            let export = sandbox.path("export")
            try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
            var text = ""
            for n in 0..<total {
                text += #"{"objectId":"item\#(n)","n":\#(n),"label":"row \#(n) of the generated export","createdAt":"2020-01-01T00:00:00.000Z"}"# + "\n"
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: export + "/Item.jsonl"))
            let state = sandbox.path("import.state")
            let arguments = ["import", "--from", "leancloud", export, "--data-dir", sandbox.dataDirectory, "--state", state, "--batch-size", "20"]

            let first = try sandbox.launch(arguments)
            // Kill it once a few batches are committed, well before the end.
            let deadline = ContinuousClock.now + .seconds(120)
            var committed = 0
            while ContinuousClock.now < deadline, first.isRunning {
                if let data = FileManager.default.contents(atPath: state), let json = try? JSONParser.parse(Array(data)),
                    let line = json["files"]?["Item.jsonl"]?["line"]?.intValue
                {
                    committed = Int(line)
                    if committed >= 200 { break }
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            first.send(SIGKILL)
            #expect(try await first.waitForExit() == .signalled(SIGKILL))
            #expect(committed > 0 && committed < total, "the first run committed \(committed) lines before it was killed")

            let second = try sandbox.launch(arguments + ["--quiet"])
            #expect(try await second.waitForExit(timeout: .seconds(600)) == .exited(0), "\(second.output)")
            let output = second.output
            let row = try #require(output.split(separator: "\n").first { $0.hasPrefix("Item ") }).split(separator: " ")
            let imported = try #require(Int(row[1]))
            let skipped = try #require(Int(row[2]))
            #expect(row[3] == "0")
            let resumedLine = output.split(separator: "\n").first { $0.hasPrefix("resumed: ") }
            let resumed = resumedLine.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
            #expect(resumed >= committed)
            #expect(imported + skipped + resumed == total, "\(output)")

            let again = try sandbox.launch(arguments + ["--quiet"])
            #expect(try await again.waitForExit() == .exited(0))
            #expect(again.output.contains("Item"))
            let againRow = try #require(again.output.split(separator: "\n").first { $0.hasPrefix("Item ") }).split(separator: " ")
            #expect(againRow[1] == "0" && againRow[2] == "\(total)")

            let store = try SQLiteStorageAdapter(path: sandbox.path("data/cirrus.sqlite"))
            let schema = try await store.loadSchema(of: "Item")
            let count = try await store.count(StorageQuery(className: "Item", schema: schema, condition: .always))
            let sample = try await store.fetch(className: "Item", ids: ["item0", "item\(total - 1)", "item\(total / 2)"])
            try await store.close()
            #expect(count == total)
            #expect(sample.count == 3)
        }
    }
}

@Suite("cirrus import: reports and dry runs")
struct ImportCommandReportTests {
    @Test("a bad line makes cirrus import exit with 2 and is listed in the default report beside the default state file")
    func failuresExitWithTwo() async throws {
        try await Sandbox.with { sandbox in
            let export = sandbox.path("export")
            try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
            try Data("{\"objectId\":\"a1\",\"n\":1}\n{broken\n{\"objectId\":\"a2\",\"n\":2}\n".utf8).write(to: URL(fileURLWithPath: export + "/Thing.jsonl"))
            let run = try sandbox.launch(["import", "--from", "leancloud", export, "--data-dir", sandbox.dataDirectory])
            #expect(try await run.waitForExit() == .exited(2))
            #expect(run.output.contains("Thing"))
            let imports = sandbox.path("data/imports")
            let names = try FileManager.default.contentsOfDirectory(atPath: imports)
            let report = try #require(names.first { $0.hasSuffix(".report.jsonl") })
            #expect(names.contains { $0.hasSuffix(".state") })
            let lines = try String(contentsOfFile: imports + "/" + report, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1)
            let failure = try JSONParser.parse(String(lines[0]))
            #expect(failure["file"] == "Thing.jsonl" && failure["line"] == 2 && failure["class"] == "Thing")
        }
    }

    @Test("cirrus import --dry-run on a new data directory validates, prints the summary and creates nothing")
    func dryRunCreatesNothing() async throws {
        try await Sandbox.with { sandbox in
            let export = sandbox.path("export")
            try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
            try Data("{\"objectId\":\"a1\",\"n\":1}\n{\"objectId\":\"a2\",\"n\":\"two\"}\n".utf8).write(to: URL(fileURLWithPath: export + "/Thing.jsonl"))
            let run = try sandbox.launch(["import", "--from", "leancloud", export, "--data-dir", sandbox.dataDirectory, "--dry-run", "--quiet"])
            #expect(try await run.waitForExit() == .exited(2))
            #expect(run.output.contains("would import"))
            let row = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("Thing ") }).split(separator: " ")
            #expect(row[1] == "1" && row[3] == "1")
            #expect(!FileManager.default.fileExists(atPath: sandbox.dataDirectory))
        }
    }
}
