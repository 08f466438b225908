public import Foundation

extension LCApplication {
    /// How an app reaches its server and keeps its current user and installation.
    public struct Configuration: Sendable {
        /// What carries requests; by default URLSession.
        public var transport: any Transport
        /// Where the current user and the current installation are kept across launches.
        public var currentUserStorage: CurrentUserStorage
        /// `true` (the LeanCloud SDKs' way) to send `X-LC-Sign: md5(timestamp + key),timestamp`; `false` to send the
        /// key itself as `X-LC-Key`.
        public var signsRequests: Bool
        /// Where query results are cached (``LCQuery/CachePolicy``), under `<directory>/<app id>/queries`; `nil` for
        /// the platform's caches directory (`~/Library/Caches/cirrus`, `$XDG_CACHE_HOME/cirrus` or `~/.cache/cirrus`).
        public var queryCacheDirectory: URL?
        /// The APNs environment ``LCPush`` asks for (`prod`); empty (the default) leaves it to the server's setting.
        public var environment: Environment
        /// The most bytes the query cache keeps: each new entry removes the oldest ones beyond it (seed 001: the cache
        /// is emptied when it takes too much space). 16 MiB by default.
        public var queryCacheSizeLimit: Int
        /// How long a query cache entry is kept at most, whatever a query's `maxCacheAge`: older entries are removed
        /// when a new one is stored. A week by default; `nil` keeps them until the size limit removes them.
        public var queryCacheLifetime: TimeInterval?
        /// Seconds between two attempts to send a request of the offline queue (``LCObject/saveEventually()``) that
        /// the network (or a server error) stopped; 10 by default.
        public var eventuallyRetryInterval: TimeInterval

        public init(
            transport: any Transport = URLSessionTransport(), currentUserStorage: CurrentUserStorage = .automatic,
            signsRequests: Bool = true, queryCacheDirectory: URL? = nil, environment: Environment = [],
            queryCacheSizeLimit: Int = 16 << 20, queryCacheLifetime: TimeInterval? = 7 * 24 * 3600, eventuallyRetryInterval: TimeInterval = 10
        ) {
            self.transport = transport
            self.currentUserStorage = currentUserStorage
            self.signsRequests = signsRequests
            self.queryCacheDirectory = queryCacheDirectory
            self.environment = environment
            self.queryCacheSizeLimit = queryCacheSizeLimit
            self.queryCacheLifetime = queryCacheLifetime
            self.eventuallyRetryInterval = eventuallyRetryInterval
        }

        /// URLSession, the platform's storage for the current user, signed requests.
        public static var `default`: Configuration { Configuration() }
    }

    /// Where the current user (and the current installation, beside it as `currentInstallation`) is kept across
    /// launches.
    public enum CurrentUserStorage: Sendable {
        /// The Keychain on Apple platforms; elsewhere a file under `$XDG_DATA_HOME` (or `~/.local/share`)
        /// `/cirrus/<app id>/currentUser.json`.
        case automatic
        /// A file in this directory (`<directory>/<app id>/currentUser.json`).
        case directory(URL)
        /// Not kept: the current user (and installation) lasts as long as the process.
        case none
    }

    /// Which environment of a service the app's requests ask for, as LeanCloud's SDK names it.
    public struct Environment: OptionSet, Sendable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Pushes go through APNs' development (sandbox) environment: ``LCPush`` sends `"prod": "dev"`.
        public static let pushDevelopment = Environment(rawValue: 1 << 1)
        /// Pushes go through APNs' production environment: ``LCPush`` sends `"prod": "prod"` (a Cirrus addition;
        /// without either, the server's `--apns-environment` decides).
        public static let pushProduction = Environment(rawValue: 1 << 2)

        /// Neither: the server's settings decide.
        public static let `default`: Environment = []
    }
}
