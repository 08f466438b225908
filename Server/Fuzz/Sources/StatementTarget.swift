import CirrusModel
import CirrusQueryLanguage

/// CQL and BQL: a statement parses and compiles, or fails at a position inside it with a report that names it; with a
/// value bound to each `?`, the compiled query's SQL keeps its shape.
enum StatementTarget {
    /// Values bound to placeholders in turn: every kind a REST client sends.
    static let values: [JSON] = [
        1, "a", 2.5, true, .null, ["a", 1], ["__type": "Date", "iso": "2015-06-21T18:02:52.249Z"],
        ["__type": "Pointer", "className": "Post", "objectId": "5a1"], ["__type": "GeoPoint", "latitude": 30, "longitude": 120],
        ["k": "v"],
    ]

    static let now = Timestamp(millisecondsSince1970: 1_700_000_000_000)

    static func run(_ input: [UInt8], language: CloudQueryLanguage) {
        let source = String(decoding: input, as: UTF8.self)
        let parsed: ParsedStatement
        do {
            parsed = try language.parse(source)
        } catch {
            checkPosition(error, in: source)
            return
        }
        let bound = parsed.placeholders.indices.map { values[$0 % values.count] }
        let options = language == .bql ? ConditionOptions(defaultOffsetMinutes: 480, defaultMaximumDistance: 100 / Condition.earthRadiusKilometers) : ConditionOptions()
        let compiler = StatementCompiler(language: language, values: bound, options: options, now: now)
        let compiled: CompiledStatement
        do {
            compiled = try compiler.compile(parsed)
        } catch {
            checkPosition(error, in: source)
            return
        }
        FuzzCheck.that((try? compiler.compile(source)) == compiled, "compiling the text and the parsed statement differ")
        switch compiled {
        case .find(let find): SQLShape.checkFind(find.query)
        case .aggregate(let aggregation): SQLShape.checkAggregation(aggregation)
        case .update(let update): update.condition.map { SQLShape.checkFind(Query(className: update.className, condition: $0)) }
        case .delete(let delete): delete.condition.map { SQLShape.checkFind(Query(className: delete.className, condition: $0)) }
        case .insert: break
        }
    }

    /// An error points at a line of the statement and a column of that line (or just past its end), as the lexer
    /// counts them (Unicode scalars, lines ended by `\n`), and its report shows that line.
    static func checkPosition(_ error: CloudQueryError, in source: String) {
        let lines = source.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        FuzzCheck.that(error.line >= 1 && error.line <= lines.count, "error line \(error.line) outside the \(lines.count) lines: \(error)")
        let line = lines[error.line - 1]
        FuzzCheck.that(error.column >= 1 && error.column <= line.count + 1, "error column \(error.column) outside line \(error.line): \(error)")
        let report = error.report(for: source)
        let shown = Array(String(String.UnicodeScalarView(line)).utf8)
        FuzzCheck.that(Array(report.utf8).firstRange(of: shown) != nil, "the report of \(error) does not show line \(error.line): \(report)")
    }
}
