import CirrusQueryLanguage

/// libFuzzer's entry point. One executable holds every target; `--target=NAME` picks one (libFuzzer ignores flags
/// that start with `--`): `CirrusFuzz --target=json -max_total_time=30 Server/Fuzz/corpus/json`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTargets.selected(input)
    return 0
}

/// The targets by name.
enum FuzzTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "json": JSONTarget.run,
        "where": WhereTarget.run,
        "cql": { StatementTarget.run($0, language: .cql) },
        "bql": { StatementTarget.run($0, language: .bql) },
        "querystring": QueryStringTarget.run,
        "range": ByteRangeTarget.run,
        "tar": TarTarget.run,
        "rtm": RTMTarget.run,
        "websocket": WebSocketTarget.run,
        "search": SearchTarget.run,
    ]

    /// The target named by `--target=`; the process stops with the list of names when there is none.
    static let selected: @Sendable ([UInt8]) -> Void = {
        let flag = "--target="
        guard let name = CommandLine.arguments.last(where: { $0.hasPrefix(flag) })?.dropFirst(flag.count),
            let target = all[String(name)]
        else {
            fatalError("name a target with --target=NAME, one of: \(all.keys.sorted().joined(separator: ", "))")
        }
        return target
    }()
}

/// Stops the process (libFuzzer saves the input as a crash) when a property of the target does not hold.
enum FuzzCheck {
    static func that(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        if !condition() { fatalError(message(), file: file, line: line) }
    }
}
