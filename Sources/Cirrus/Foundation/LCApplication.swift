import CirrusModel
public import Foundation

/// An app on a Cirrus (or LeanCloud) server: its id, key and server URL, the user logged in to it and this device's
/// installation.
///
/// Most apps use one, ``default``, set once at launch:
/// ```swift
/// try LCApplication.default.set(id: "app id", key: "app key", serverURL: "https://cirrus.example.com")
/// ```
/// Every object, query and user call takes an `application:` argument defaulting to ``default``.
public final class LCApplication: @unchecked Sendable {
    /// The app most calls use.
    public static let `default` = LCApplication()

    private let lock = Lock()
    private var settings: Settings?
    private var user: CurrentUser = .unloaded
    private var installation: LCInstallation?
    private var liveQuery: LiveQueryConnection?
    private var defaultObjectACL: DefaultACL?
    private var automaticUser = false
    private var eventually: EventuallyQueue?

    /// What ``set(id:key:serverURL:configuration:)`` was given.
    struct Settings: Sendable {
        let id: String
        let key: String
        let serverURL: URL
        let configuration: Configuration
    }

    /// The current user, not read yet from its storage, or read (maybe `nil`).
    private enum CurrentUser {
        case unloaded
        case loaded(LCUser?)
    }

    /// An app that needs ``set(id:key:serverURL:configuration:)`` before use.
    public init() {}

    /// An app with its id, key and server URL.
    /// - Throws: `LCError` when `serverURL` is not an http(s) URL.
    public convenience init(id: String, key: String, serverURL: String, configuration: Configuration = .default) throws {
        self.init()
        try set(id: id, key: key, serverURL: serverURL, configuration: configuration)
    }

    /// Sets the app's id, key and server URL (`https://host[:port]`, without `/1.1`).
    ///
    /// A Cirrus server always needs `serverURL`; LeanCloud's app router is not used.
    /// - Throws: `LCError` when `serverURL` is missing or not an http(s) URL.
    public func set(id: String, key: String, serverURL: String? = nil, configuration: Configuration = .default) throws {
        guard let text = serverURL, let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            throw LCError(code: .inconsistency, reason: "serverURL must be an http or https URL, not \(serverURL ?? "nil").")
        }
        let directory = EventuallyQueue.directory(storage: configuration.currentUserStorage, appId: id)
        let (queue, replaced) = lock.withLock { () -> (EventuallyQueue, EventuallyQueue?) in
            settings = Settings(id: id, key: key, serverURL: url, configuration: configuration)
            user = .unloaded
            installation = nil
            // Set up again with the same storage: the queue that holds its requests goes on; two would send them twice.
            if let current = eventually, current.directory == directory { return (current, nil) }
            let previous = eventually
            eventually = EventuallyQueue(application: self, directory: directory)
            return (eventually!, previous)
        }
        replaced?.stop()
        // Requests the last launch queued and did not send go now.
        queue.start()
    }

    /// The offline queue of ``LCObject/saveEventually()``.
    /// - Throws: `LCError` when the app was never set.
    func eventuallyQueue() throws -> EventuallyQueue {
        guard let queue = lock.withLock({ eventually }) else {
            throw LCError(code: .inconsistency, reason: "LCApplication is not set up: call set(id:key:serverURL:) first.")
        }
        return queue
    }

    /// How many ``LCObject/saveEventually()`` and ``LCObject/deleteEventually()`` requests wait to be sent.
    public var eventuallyQueueCount: Int { lock.withLock { eventually }?.count ?? 0 }

    /// Sends the waiting requests of the offline queue now instead of after the retry interval (when the app learns
    /// that the network is back, say).
    public func retryEventually() {
        lock.withLock { eventually }?.start()
    }

    /// The one WebSocket of the app's live queries, made on first use.
    var liveQueryConnection: LiveQueryConnection {
        lock.withLock {
            if let liveQuery { return liveQuery }
            let made = LiveQueryConnection(application: self)
            liveQuery = made
            return made
        }
    }

    /// Whether ``currentUser`` is an automatic anonymous user when no one is logged in
    /// (``LCUser/enableAutomaticUser(application:)``).
    var isAutomaticUserEnabled: Bool {
        get { lock.withLock { automaticUser } }
        set { lock.withLock { automaticUser = newValue } }
    }

    /// The ACL new objects get (``LCACL/setDefault(_:withAccessForCurrentUser:application:)``).
    var defaultACL: DefaultACL? {
        get { lock.withLock { defaultObjectACL } }
        set { lock.withLock { defaultObjectACL = newValue } }
    }

    /// The app id.
    public var id: String? { lock.withLock { settings?.id } }

    /// The app key.
    public var key: String? { lock.withLock { settings?.key } }

    /// The server URL.
    public var serverURL: URL? { lock.withLock { settings?.serverURL } }

    /// The configuration given with the keys.
    public var configuration: Configuration { lock.withLock { settings?.configuration } ?? .default }

    /// The settings of a configured app.
    /// - Throws: `LCError` when the app was never set.
    func requireSettings() throws -> Settings {
        guard let settings = lock.withLock({ settings }) else {
            throw LCError(code: .inconsistency, reason: "LCApplication is not set up: call set(id:key:serverURL:) first.")
        }
        return settings
    }

    /// The user logged in to this app, kept across launches (the Keychain on Apple platforms, a file elsewhere).
    ///
    /// Log-in and sign-up set it; ``LCUser/logOut(application:)`` clears it. Setting it stores the user's
    /// session token and fields.
    public var currentUser: LCUser? {
        get {
            lock.withLock {
                if case .loaded(let current?) = user { return current }
                if case .unloaded = user { user = .loaded(loadUser()) }
                if case .loaded(let current?) = user { return current }
                guard automaticUser else { return nil }
                // Not stored until its first save creates it on the server (LCUser.didSaveFields stores it then).
                let made = LCUser.automatic(application: self)
                user = .loaded(made)
                return made
            }
        }
        set {
            lock.withLock {
                user = .loaded(newValue)
                storeUser(newValue)
            }
        }
    }

    /// Stores the current user again after its session token or fields changed.
    func persistCurrentUser(ifItIs changed: LCUser) {
        lock.withLock {
            guard case .loaded(let current) = user, current === changed else { return }
            storeUser(current)
        }
    }

    /// This device's installation for the app, kept across launches where the current user is
    /// (``Configuration/currentUserStorage``), so the next launch saves onto the same `_Installation`.
    ///
    /// The first use reads the installation the last launch saved, or makes a new one (``LCInstallation`` sets its
    /// device type, time zone and APNs topic). Each save of it stores it again.
    /// ```swift
    /// let installation = LCApplication.default.currentInstallation
    /// installation.set(deviceToken: token, apnsTeamId: "TEAMID1234")
    /// try await installation.save()
    /// ```
    public var currentInstallation: LCInstallation {
        lock.withLock {
            if let installation { return installation }
            let current = loadInstallation() ?? LCInstallation(application: self)
            installation = current
            return current
        }
    }

    /// Stores the current installation again after it was saved or fetched.
    func persistCurrentInstallation(ifItIs changed: LCInstallation) {
        lock.withLock {
            guard let settings, installation === changed else { return }
            installationStore(settings).save(ObjectEncoder.snapshot(changed))
        }
    }

    private func loadInstallation() -> LCInstallation? {
        guard let settings, let json = installationStore(settings).load(),
            let loaded = ObjectDecoder(application: self).object(json, className: LCInstallation.objectClassName()) as? LCInstallation
        else { return nil }
        loaded.refreshDeviceFields()
        return loaded
    }

    private func installationStore(_ settings: Settings) -> CurrentUserStore {
        CurrentUserStore(storage: settings.configuration.currentUserStorage, appId: settings.id, name: "currentInstallation")
    }

    private func loadUser() -> LCUser? {
        guard let settings else { return nil }
        let store = CurrentUserStore(storage: settings.configuration.currentUserStorage, appId: settings.id)
        guard let json = store.load() else { return nil }
        return ObjectDecoder(application: self).object(json, className: LCUser.objectClassName()) as? LCUser
    }

    private func storeUser(_ current: LCUser?) {
        guard let settings else { return }
        let store = CurrentUserStore(storage: settings.configuration.currentUserStorage, appId: settings.id)
        store.save(current.map { ObjectEncoder.snapshot($0) })
    }
}
