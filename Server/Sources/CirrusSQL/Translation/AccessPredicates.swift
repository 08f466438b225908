import CirrusModel

/// The ACL predicates already built: the same principals (every anonymous request's `*`, a user's principals on each
/// of their requests) get the same SQL, which is built once and then looked up. Bounded: past ``capacity`` entries
/// the memory is emptied and fills again.
final class AccessPredicates: @unchecked Sendable {
    struct Key: Hashable {
        let dialect: String
        let right: ACL.Right
        let principals: [String]
    }

    static let shared = AccessPredicates()
    static let capacity = 4096

    private let lock = Lock()
    private var predicates: [Key: SQLFragment] = [:]

    /// The predicate of `key`, built by `build` the first time.
    func predicate(_ key: Key, build: () -> SQLFragment) -> SQLFragment {
        if let known = lock.withLock({ predicates[key] }) { return known }
        let built = build()
        lock.withLock {
            if predicates.count >= Self.capacity { predicates.removeAll(keepingCapacity: true) }
            predicates[key] = built
        }
        return built
    }
}
