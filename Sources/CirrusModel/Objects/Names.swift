/// Rules for class names.
public enum ClassName {
    /// The system classes a client may address even though their names start with `_`.
    public static let systemClasses: Set<String> = [
        "_User", "_Role", "_File", "_Installation", "_Session", "_Conversation", "_Status",
        "_Follower", "_Followee", "_FriendshipRequest", "_Notification",
    ]

    /// Whether `name` is a valid user class (a letter, then letters, digits and `_`) or a system class.
    public static func isValid(_ name: String) -> Bool {
        systemClasses.contains(name) || FieldName.isIdentifier(name, maximumLength: 128)
    }

    /// Validates a class name.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidClassName``.
    public static func validate(_ name: String) throws(APIError) {
        guard isValid(name) else {
            throw APIError(.invalidClassName, "Invalid class name '\(name)': class names start with a letter "
                + "and contain only letters, digits and underscores.")
        }
    }
}

/// Rules for field (key) names.
public enum FieldName {
    /// Built-in fields that the server maintains; compared without regard to case.
    public static let reserved: Set<String> = ["objectid", "createdat", "updatedat", "acl", "classname"]

    /// Whether `name` starts with a letter and holds only ASCII letters, digits and `_`.
    public static func isIdentifier(_ name: String, maximumLength: Int = 128) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, first.isASCIILetter, bytes.count <= maximumLength else { return false }
        return bytes.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "_") }
    }

    /// Whether `name` may be written as a top-level field by a client.
    public static func isWritable(_ name: String) -> Bool {
        isIdentifier(name) && !reserved.contains(name.lowercased())
    }

    /// Whether `key` may appear inside a nested object: not empty, no `$` or `.`, no `__` prefix.
    public static func isValidNestedKey(_ key: String) -> Bool {
        !key.isEmpty && !key.utf8.contains(UInt8(ascii: "$")) && !key.utf8.contains(UInt8(ascii: "."))
            && !key.hasPrefix("__")
    }
}

extension UInt8 {
    var isASCIILetter: Bool { (65...90).contains(self) || (97...122).contains(self) }
    var isASCIIDigit: Bool { (48...57).contains(self) }
}
