import CirrusModel

/// Turns one export file into records, in constant memory: JSON Lines read line by line (a line over ``lineLimit``
/// is a reported failure), or the elements of a JSON array or `{"results":[…]}` document streamed one by one
/// (``JSONElementStream``; an element over ``lineLimit`` is a reported failure). `.jsonl` files are read as lines;
/// `.json` files as such a document, or as lines when they are not one. In a document, "line" numbers the elements
/// (1 = the first). ``documentLimit`` bounds the one file read whole, `_schema.json`.
struct RecordReader {
    enum Record {
        case object([String: JSON], line: Int)
        case failure(line: Int, reason: String)
    }

    static let lineLimit = 64 << 20
    static let documentLimit = 256 << 20

    var lineLimit = Self.lineLimit

    /// Reads the records of `name` after line `after`, handing each to `body`.
    func read(_ source: any ByteSource, name: String, after: Int, _ body: (Record) async throws -> Void) async throws {
        guard name.lowercased().hasSuffix(".json") else {
            try await readLines(LineReader(source, limit: lineLimit), after: after, body)
            return
        }
        let replaying = ReplayingSource(source)
        guard let stream = try JSONElementStream.open(replaying, limit: lineLimit) else {
            try await readLines(LineReader(replaying, limit: lineLimit), after: after, body)
            return
        }
        while let item = try stream.next() {
            switch item {
            case .element(let bytes, let index) where index > after:
                do {
                    try await body(Self.record(try JSONParser.parse(bytes), line: index))
                } catch let error as JSONParser.SyntaxError {
                    try await body(.failure(line: index, reason: "Invalid JSON: \(error)."))
                }
            case .tooLarge(let index) where index > after:
                try await body(.failure(line: index, reason: "The element is larger than \(lineLimit >> 20) MiB."))
            case .malformed(let index, let reason) where index > after:
                try await body(.failure(line: index, reason: reason))
            default:
                continue
            }
        }
    }

    private func readLines(_ lines: LineReader, after: Int, _ body: (Record) async throws -> Void) async throws {
        while let line = try lines.next() {
            switch line {
            case .tooLong(let number):
                if number > after { try await body(.failure(line: number, reason: "The line is longer than \(lineLimit >> 20) MiB.")) }
            case .text(let bytes, let number):
                guard number > after, bytes.contains(where: { !Self.isWhitespace($0) }) else { continue }
                let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
                do {
                    try await body(Self.record(try JSONParser.parse(text), line: number))
                } catch let error as JSONParser.SyntaxError {
                    try await body(.failure(line: number, reason: "Invalid JSON: \(error)."))
                }
            }
        }
    }

    /// The elements of a whole document: an array, `{"results":[…]}`, or a single object; `nil` when the bytes are
    /// not one JSON document (JSON Lines in a `.json` file).
    static func elements(of bytes: [UInt8]) -> [JSON]? {
        guard let document = try? JSONParser.parse(bytes) else { return nil }
        switch document {
        case .array(let elements): return elements
        case .object(let members):
            if case .array(let elements)? = members["results"] { return elements }
            return [document]
        default: return [document]
        }
    }

    private static func record(_ value: JSON, line: Int) -> Record {
        guard case .object(let members) = value else { return .failure(line: line, reason: "Not a JSON object.") }
        return .object(members, line: line)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d || byte == 0xef || byte == 0xbb || byte == 0xbf
    }
}

/// Bytes already in memory, as a source.
final class InMemorySource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(max: Int) throws -> [UInt8] {
        let end = min(bytes.count, offset + max)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}
