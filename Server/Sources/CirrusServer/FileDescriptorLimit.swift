#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`), which bounds how many connections it can hold.
enum FileDescriptorLimit {
    /// Raises the soft limit to the hard one (on macOS, to at most `OPEN_MAX`). Returns the soft limit before and
    /// after; both the same when it could not be raised.
    static func raise() -> (before: Int, after: Int) {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return (0, 0) }
        let before = limit.rlim_cur
        var target = limit.rlim_max
        #if canImport(Darwin)
        target = min(target, rlim_t(OPEN_MAX))
        #endif
        guard target > before else { return (clamped(before), clamped(before)) }
        limit.rlim_cur = target
        guard setrlimit(resource, &limit) == 0 else { return (clamped(before), clamped(before)) }
        return (clamped(before), clamped(target))
    }

    /// The connections a soft limit of `files` leaves room for: the descriptors the store, the files and the event
    /// loops need are kept apart.
    static func connections(allowedBy files: Int) -> Int {
        max(1, files - max(64, files / 8))
    }

    private static func clamped(_ value: rlim_t) -> Int {
        value > rlim_t(Int.max) ? Int.max : Int(value)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
