@testable import CirrusMigration
import CirrusModel
import Foundation
import Testing

@Suite("Reading exports")
struct ImportReadingTests {
    @Test(
        "file names give the class, relation or schema they hold",
        arguments: [
            ("_User.jsonl", ExportFileName.objects(className: "_User")),
            ("export/2024/_User.0.jsonl", .objects(className: "_User")),
            ("Post.json", .objects(className: "Post")),
            ("_Join:comments:Post.jsonl", .join(field: "comments", owningClass: "Post")),
            ("_Join\u{A789}users\u{A789}_Role.json", .join(field: "users", owningClass: "_Role")),
            ("_schema.json", .schema),
            ("manifest.json", .ignored),
            ("files/abc.json", .ignored),
            ("Post.csv", .ignored),
        ]
    )
    func fileNames(name: String, expected: ExportFileName) {
        #expect(ExportFileName(path: name) == expected)
    }

    @Test("a line over the limit is reported by number and the next lines are read")
    func longLine() throws {
        let text = "{\"a\":1}\n" + String(repeating: "x", count: 5000) + "\n{\"b\":2}\r\n{\"c\":3}"
        let reader = LineReader(InMemorySource(Array(text.utf8)), limit: 100)
        var seen: [String] = []
        while let line = try reader.next() {
            switch line {
            case .text(let bytes, let number): seen.append("\(number):\(String(decoding: bytes, as: UTF8.self))")
            case .tooLong(let number): seen.append("\(number):too long")
            }
        }
        #expect(seen == ["1:{\"a\":1}", "2:too long", "3:{\"b\":2}", "4:{\"c\":3}"])
    }

    @Test("a JSON array, {\"results\":[…]} (pretty-printed too) and JSON Lines in a .json file all give their objects")
    func shapes() async throws {
        let shapes = [
            "[{\"a\":1},{\"a\":2}]", "{\"results\":[{\"a\":1},{\"a\":2}]}", "{\"a\":1}\n{\"a\":2}\n",
            "\u{FEFF}{\n  \"results\" : [\n    {\"a\": 1, \"s\": \"],}\\\"{[\"},\n    {\"a\": 2, \"n\": [1, {\"x\": []}]}\n  ],\n  \"count\": 2\n}\n",
            "[ {\"a\":1} , {\"a\":2} ]",
        ]
        for shape in shapes {
            var values: [JSON] = []
            try await RecordReader().read(InMemorySource(Array(shape.utf8)), name: "X.json", after: 0) { record in
                if case .object(let members, _) = record { values.append(members["a"] ?? .null) }
            }
            #expect(values == [.int(1), .int(2)], "\(shape)")
        }
    }

    @Test("array elements are streamed one by one: bad and oversized elements are reported by position, the others read")
    func streamedElements() async throws {
        let text = "[{\"a\":1}, {\"a\":tru}, 7, {\"big\":\"" + String(repeating: "x", count: 300) + "\"}, {\"a\":5}, {\"a\":6"
        var seen: [String] = []
        let reader = RecordReader(lineLimit: 100)
        try await reader.read(InMemorySource(Array(text.utf8)), name: "X.json", after: 0) { record in
            switch record {
            case .object(let members, let line): seen.append("\(line):\(members["a"].map(JSONWriter.string) ?? "-")")
            case .failure(let line, _): seen.append("\(line):failed")
            }
        }
        #expect(seen == ["1:1", "2:failed", "3:failed", "4:failed", "5:5", "6:failed"])
        var resumed: [Int] = []
        try await reader.read(InMemorySource(Array(text.utf8)), name: "X.json", after: 4) { record in
            if case .object(_, let line) = record { resumed.append(line) }
        }
        #expect(resumed == [5])
    }

    @Test("a tar.gz made by tar is read member by member, long names included")
    func tarArchive() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        let deep = String(repeating: "nested-directory/", count: 8) + "Post.jsonl"
        try fixture.lines(deep, [["objectId": "p1"], ["objectId": "p2"]])
        try fixture.lines("_User.jsonl", [["objectId": "u1", "username": "a"]])
        let input = try ImportInput(path: try fixture.archive())
        let entries = try input.entries()
        #expect(entries.map(\.kind) == [.objects(className: "_User"), .objects(className: "Post")])
        #expect(entries.last?.name.hasSuffix(deep) == true)
        var read: [String: Int] = [:]
        try await input.read(entries) { entry, source in
            read[entry.name] = try readAll(source, limit: 1 << 20, name: entry.name).count
        }
        #expect(read.count == 2)
        #expect(read.values.allSatisfy { $0 > 10 })
    }
}
