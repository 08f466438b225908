import CirrusModel

/// The JSON parser: a text it accepts writes back as canonical text that parses to the same value and writes to the
/// same bytes; a text it refuses is refused at a position inside the text.
enum JSONTarget {
    static func run(_ input: [UInt8]) {
        let value: JSON
        do {
            value = try JSONParser.parse(input)
        } catch {
            FuzzCheck.that((0...input.count).contains(error.offset), "error offset \(error.offset) outside the \(input.count) bytes")
            return
        }
        let text = JSONWriter.bytes(value)
        let reparsed: JSON
        do {
            reparsed = try JSONParser.parse(text)
        } catch {
            fatalError("the writer's text \(String(decoding: text, as: UTF8.self)) does not parse: \(error)")
        }
        FuzzCheck.that(reparsed == value, "parse → write → parse changed \(value) into \(reparsed)")
        FuzzCheck.that(JSONWriter.bytes(reparsed) == text, "the canonical text of \(value) is not stable")
    }
}
