import CirrusModel
import CirrusStorage

/// Applies the field operations of an update to a stored document, as the SQL stores' `UPDATE` does: the value of
/// each operation comes from `FieldOperation.apply(to:)`, except that array operations keep the stored elements in
/// their exact JSON form; nested paths write into objects (creating missing parents) and array elements.
enum DocumentEditor {
    /// The document after `operations` (relation edits, which live outside it, are skipped).
    /// - Throws: ``StorageError/refused(_:)`` when a number would pass the largest double.
    static func applying(_ operations: [(path: FieldPath, operation: FieldOperation)], to fields: [String: JSON]) throws -> [String: JSON] {
        var document = JSON.object(fields)
        for (path, operation) in operations where operation.touchesDocument {
            if case .delete = operation {
                document = removing(path.segments[...], from: document)
            } else {
                let current = ConditionSubject(className: "", objectId: "", createdAt: .init(millisecondsSince1970: 0),
                                               updatedAt: .init(millisecondsSince1970: 0), fields: document.objectValue ?? [:]).value(at: path)
                document = setting(try value(after: operation, on: current), at: path.segments[...], in: document)
            }
        }
        return document.objectValue ?? [:]
    }

    /// The new value of a field holding `current` (`nil`: absent).
    static func value(after operation: FieldOperation, on current: JSON?) throws -> JSON {
        switch operation {
        case .add(let elements):
            return .array(storedElements(current) + elements.map(\.wire))
        case .addUnique(let elements):
            var result = storedElements(current)
            var present = Set(result.compactMap { try? Value(wire: $0).equivalenceKey })
            for element in elements where present.insert(element.equivalenceKey).inserted { result.append(element.wire) }
            return .array(result)
        case .remove(let elements):
            let removed = Set(elements.map(\.equivalenceKey))
            return .array(storedElements(current).filter { element in (try? Value(wire: element)).map { !removed.contains($0.equivalenceKey) } ?? true })
        default:
            let stored = current.flatMap { try? Value(wire: $0) }
            let result = operation.apply(to: stored)
            if case .double(let number)? = result, !number.isFinite { throw StorageError.refused(.numberOutOfRange) }
            return result?.wire ?? .null
        }
    }

    /// The elements of a stored array; none when the field is absent or holds something else.
    private static func storedElements(_ current: JSON?) -> [JSON] {
        current?.arrayValue ?? []
    }

    /// `node` with `value` written at `path`: object members by key (missing parents become objects), array elements
    /// by index when in range; a scalar parent or an index out of range leaves it unchanged.
    static func setting(_ value: JSON, at path: ArraySlice<String>, in node: JSON) -> JSON {
        guard let segment = path.first else { return value }
        let rest = path.dropFirst()
        switch node {
        case .object(var members):
            members[segment] = rest.isEmpty ? value : setting(value, at: rest, in: members[segment] ?? .object([:]))
            return .object(members)
        case .array(var elements):
            guard let index = index(segment, in: elements) else { return node }
            elements[index] = setting(value, at: rest, in: elements[index])
            return .array(elements)
        default:
            return node
        }
    }

    /// `node` without the member or element at `path`; unchanged when there is none.
    static func removing(_ path: ArraySlice<String>, from node: JSON) -> JSON {
        guard let segment = path.first else { return node }
        let rest = path.dropFirst()
        switch node {
        case .object(var members):
            guard let member = members[segment] else { return node }
            if rest.isEmpty {
                members.removeValue(forKey: segment)
            } else {
                members[segment] = removing(rest, from: member)
            }
            return .object(members)
        case .array(var elements):
            guard let index = index(segment, in: elements) else { return node }
            if rest.isEmpty { elements.remove(at: index) } else { elements[index] = removing(rest, from: elements[index]) }
            return .array(elements)
        default:
            return node
        }
    }

    private static func index(_ segment: String, in elements: [JSON]) -> Int? {
        guard FieldPath.isIndex(segment), let index = Int(segment), index < elements.count else { return nil }
        return index
    }
}
