import CirrusModel
import CirrusStorage

/// The unique fields of system classes, as the SQL stores' unique indexes keep them.
extension InMemoryState {
    /// The fields whose values no two objects of a class may share (missing and `null` values are not constrained).
    static func uniqueFields(of className: String) -> [String] {
        switch className {
        case "_User": ["username", "email", "mobilePhoneNumber"]
        case "_Role": ["name"]
        case "_File": ["key"]
        default: []
        }
    }

    /// Refuses an object holding a unique value another object of its class holds; `_User` e-mail addresses also
    /// ignoring the case of ASCII letters.
    /// - Throws: ``StorageError/duplicateValue(field:)`` naming the field.
    func checkUnique(_ object: StoredObject) throws {
        let fields = Self.uniqueFields(of: object.className)
        guard !fields.isEmpty, let others = classes[object.className]?.entries.values.map(\.object).filter({ $0.objectId != object.objectId }) else {
            return
        }
        for field in fields {
            guard let value = object.fields[field], !value.isNull else { continue }
            if others.contains(where: { $0.fields[field] == value }) { throw StorageError.duplicateValue(field: field) }
        }
        if object.className == "_User", let email = object.fields["email"]?.stringValue {
            let lowered = Self.asciiLowercased(email)
            if others.contains(where: { $0.fields["email"]?.stringValue.map(Self.asciiLowercased) == lowered }) {
                throw StorageError.duplicateValue(field: "email")
            }
        }
    }

    /// `text` with the ASCII letters lower-cased and every other character kept.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
