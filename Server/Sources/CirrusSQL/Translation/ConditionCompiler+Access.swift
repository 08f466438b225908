package import CirrusModel

/// Read permission in SQL: the one predicate every read path adds (find, count, aggregate, fetch by id and
/// the inner queries of sub-queries).
extension ConditionCompiler {
    /// The ACL column of object tables: LeanCloud's ACL JSON (`{"*":{"read":true},"<userId>":{"read":true}}`),
    /// NULL for a public object.
    package static let aclColumn = "acl"

    /// True for the objects that one of `readers` (ACL principals: `*`, a user id, `role:<name>`) may read: a
    /// NULL ACL, or one granting `read: true` to a reader. `nil` readers (the master key) need no predicate.
    /// Principals holding a quote or backslash cannot be ACL keys written by the services and are ignored.
    package func readable(by readers: [String]?) -> SQLFragment? {
        granted(.read, to: readers)
    }

    /// True for the objects that one of `writers` may write: a NULL ACL, or one granting `write: true` to a writer.
    /// `nil` writers (the master key) need no predicate.
    package func writable(by writers: [String]?) -> SQLFragment? {
        granted(.write, to: writers)
    }

    private func granted(_ right: ACL.Right, to principals: [String]?) -> SQLFragment? {
        guard let principals else { return nil }
        return AccessPredicates.shared.predicate(.init(dialect: dialect.name, right: right, principals: principals)) {
            buildGranted(right, to: principals)
        }
    }

    private func buildGranted(_ right: ACL.Right, to principals: [String]) -> SQLFragment {
        let grants = principals.filter { !$0.isEmpty && !$0.contains("\"") && !$0.contains("\\") }.map { principal -> SQLFragment in
            let entry = dialect.target(column: Self.aclColumn, path: FieldPath([principal]))
            return dialect.hasKind(dialect.member(right.rawValue, of: entry), .trueValue)
        }
        return (["\(raw: dialect.quote(Self.aclColumn)) IS NULL"] + grants).combined("OR")
    }

    /// ``compile(_:)`` restricted to the objects ``readers`` may read.
    package func compileReadable(_ condition: Condition) -> SQLFragment {
        let compiled = compile(condition)
        guard let restriction = readable(by: readers) else { return compiled }
        return condition == .always ? restriction : [compiled, restriction].combined("AND")
    }
}
