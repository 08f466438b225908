/// The two JSON forms of class permissions: LeanCloud's console form and Parse's `classLevelPermissions`.
///
/// LeanCloud: `{"find":{"*":true},"get":{"onlySignInUsers":true},"create":{"roles":["Admin"],"users":["<id>"]},
/// "add_fields":…}`. Parse: `{"find":{"*":true},"get":{"requiresAuthentication":true},"create":{"role:Admin":true,
/// "<id>":true},"addField":…,"count":…}`. Either is read in any dialect; Parse's `count` follows `find`.
extension ClassPermissions {
    public enum WireStyle: Sendable {
        case leancloud
        case parse
    }

    /// Reads either form.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidParameter`` for unknown operations or malformed rules.
    public init(wire json: JSON) throws(APIError) {
        guard case .object(let members) = json else { throw Self.invalid("class permissions must be a JSON object") }
        var rules: [Operation: Rule] = [:]
        for (key, value) in members {
            if key == "count" || key == "readUserFields" || key == "writeUserFields" || key == "protectedFields" { continue }
            guard let operation = key == "addField" ? .addFields : Operation(rawValue: key) else {
                throw Self.invalid("unknown operation '\(key)'")
            }
            rules[operation] = try Self.rule(value, operation: key)
        }
        self.init(rules)
    }

    private static func rule(_ json: JSON, operation: String) throws(APIError) -> Rule {
        guard case .object(let members) = json else { throw invalid("the rule of '\(operation)' must be an object") }
        var rule = Rule()
        for (key, value) in members {
            switch key {
            case "*": rule.everyone = try flag(value, key)
            case "onlySignInUsers", "requiresAuthentication": rule.signedIn = try flag(value, key)
            case "roles", "users":
                guard case .array(let names) = value, let strings = Optional(names.compactMap(\.stringValue)), strings.count == names.count else {
                    throw invalid("'\(key)' of '\(operation)' must be an array of strings")
                }
                if key == "roles" { rule.roles.formUnion(strings) } else { rule.users.formUnion(strings) }
            default:
                guard try flag(value, key) else { continue }
                if key.hasPrefix("role:") { rule.roles.insert(String(key.dropFirst(5))) } else { rule.users.insert(key) }
            }
        }
        return rule
    }

    private static func flag(_ value: JSON, _ key: String) throws(APIError) -> Bool {
        guard let flag = value.boolValue else { throw invalid("'\(key)' must be true or false") }
        return flag
    }

    /// Every operation's rule in one form.
    public func wire(_ style: WireStyle) -> JSON {
        var members: [String: JSON] = [:]
        for operation in Operation.allCases {
            let rule = rule(for: operation)
            let name = style == .parse && operation == .addFields ? "addField" : operation.rawValue
            members[name] = Self.encode(rule, style)
            if style == .parse, operation == .find { members["count"] = Self.encode(rule, style) }
        }
        return .object(members)
    }

    private static func encode(_ rule: Rule, _ style: WireStyle) -> JSON {
        if rule.everyone { return ["*": true] }
        switch style {
        case .leancloud:
            if rule.signedIn { return ["onlySignInUsers": true] }
            return ["roles": .array(rule.roles.sorted().map(JSON.string)), "users": .array(rule.users.sorted().map(JSON.string))]
        case .parse:
            var members: [String: JSON] = [:]
            if rule.signedIn { members["requiresAuthentication"] = true }
            for role in rule.roles { members["role:" + role] = true }
            for user in rule.users { members[user] = true }
            return .object(members)
        }
    }

    private static func invalid(_ detail: String) -> APIError {
        APIError(.invalidParameter, "Invalid class permissions: \(detail).")
    }
}
