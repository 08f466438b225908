import CirrusModel

/// Turns one export file into records: JSON Lines read line by line (a line over ``lineLimit`` is a reported
/// failure), or a whole JSON document (an array, or `{"results":[…]}`), parsed at once up to ``documentLimit``
/// bytes. `.jsonl` files are read as lines; `.json` files as one document, or as lines when they are not one.
/// In a whole document, "line" numbers the elements (1 = the first element).
struct RecordReader {
    enum Record {
        case object([String: JSON], line: Int)
        case failure(line: Int, reason: String)
    }

    static let lineLimit = 64 << 20
    static let documentLimit = 256 << 20

    var lineLimit = Self.lineLimit
    var documentLimit = Self.documentLimit

    /// Reads the records of `name` after line `after`, handing each to `body`.
    func read(_ source: any ByteSource, name: String, after: Int, _ body: (Record) async throws -> Void) async throws {
        if name.lowercased().hasSuffix(".json") {
            let bytes = try readAll(source, limit: documentLimit, name: name)
            if let elements = Self.elements(of: bytes) {
                for (index, element) in elements.enumerated() where index + 1 > after {
                    try await body(Self.record(element, line: index + 1))
                }
                return
            }
            try await readLines(LineReader(InMemorySource(bytes), limit: lineLimit), after: after, body)
            return
        }
        try await readLines(LineReader(source, limit: lineLimit), after: after, body)
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
