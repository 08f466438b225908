import ArgumentParser
import Foundation

/// Reads a setting from its flag or else its `CIRRUS_*` environment variable; an empty variable counts as unset.
struct EnvironmentValues {
    let environment: [String: String]

    func string(_ flag: String?, _ name: String) -> String? {
        flag ?? environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// - Throws: `ValidationError` naming the variable when it is not an integer.
    func integer(_ flag: Int?, _ name: String) throws -> Int? {
        if let flag { return flag }
        guard let text = string(nil, name) else { return nil }
        guard let number = Int(text) else { throw ValidationError("\(name) must be an integer, got '\(text)'.") }
        return number
    }

    /// A positive integer.
    /// - Throws: `ValidationError` naming the variable when it is not an integer or not positive.
    func positiveInteger(_ flag: Int?, _ name: String) throws -> Int? {
        guard let value = try integer(flag, name) else { return nil }
        guard value > 0 else { throw ValidationError("\(name) must be a positive integer, got \(value).") }
        return value
    }

    /// `true`, `1`, `yes`, `on` or `false`, `0`, `no`, `off`.
    /// - Throws: `ValidationError` naming the variable for anything else.
    func bool(_ flag: Bool?, _ name: String) throws -> Bool? {
        if let flag { return flag }
        guard let text = string(nil, name)?.lowercased() else { return nil }
        switch text {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw ValidationError("\(name) must be true or false, got '\(text)'.")
        }
    }

    /// The flag's values, or else the variable's comma-separated values.
    func list(_ flags: [String], _ name: String) -> [String] {
        guard flags.isEmpty else { return flags }
        return string(nil, name)?.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
    }
}
