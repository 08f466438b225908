import CirrusModel

/// A user of the app (`_User`): an ``LCObject`` with a username, password, e-mail, phone number and session token.
///
/// Sign up with ``signUp()``; log in with the `logIn` statics. The user logged in is
/// ``LCApplication/currentUser``, kept across launches; its session token goes with every request.
open class LCUser: LCObject, @unchecked Sendable {
    open override class func objectClassName() -> String { "_User" }

    override var endpoint: String { "/users" }

    /// The current user of ``LCApplication/default`` (``LCApplication/currentUser``).
    public static var current: LCUser? { LCApplication.default.currentUser }

    /// The username.
    public var username: LCString? {
        get { self.get("username") as? LCString }
        set { try? set("username", value: newValue) }
    }

    /// The password, sent by the next save or sign-up and then forgotten.
    public var password: LCString? {
        get { self.get("password") as? LCString }
        set { try? set("password", value: newValue) }
    }

    /// The e-mail address.
    public var email: LCString? {
        get { self.get("email") as? LCString }
        set { try? set("email", value: newValue) }
    }

    /// The mobile phone number (`+` and digits).
    public var mobilePhoneNumber: LCString? {
        get { self.get("mobilePhoneNumber") as? LCString }
        set { try? set("mobilePhoneNumber", value: newValue) }
    }

    /// Whether the e-mail address was verified.
    public var emailVerified: LCBool? { self.get("emailVerified") as? LCBool }

    /// Whether the phone number was verified.
    public var mobilePhoneVerified: LCBool? { self.get("mobilePhoneVerified") as? LCBool }

    /// The session token of a user who signed up or logged in.
    public var sessionToken: LCString? { self.get("sessionToken") as? LCString }

    /// Whether the user's last sign-up or third-party log-in created it on the server (seed 002: `user.isNew`); `false`
    /// after a log-in to an existing account.
    public internal(set) var isNew: Bool {
        get { lock.withLock { created } }
        set { lock.withLock { created = newValue } }
    }

    /// ``isNew``, guarded by the object's lock.
    private var created = false

    /// The third-party accounts linked to the user.
    public var authData: LCDictionary? { self.get("authData") as? LCDictionary }

    /// A user's own requests carry its session token, whoever is the current user.
    override var sessionForRequests: RESTClient.Session {
        sessionToken.map { .token($0.value) } ?? .current
    }

    /// A user is changed only by itself: saves, deletes and account changes carry its own session token, and a user
    /// without one (read by a query rather than obtained by logging in or signing up) carries none, so the server
    /// refuses them, as the guide's "Security of User Objects" says (seed 000 L949–983) — even when the current
    /// user is the same account.
    override var sessionForWrites: RESTClient.Session {
        sessionToken.map { .token($0.value) } ?? .token(nil)
    }

    override func didSaveFields() {
        lock.withLock { state.properties["password"] = nil }
        application.persistCurrentUser(ifItIs: self)
    }

    override func didFetchFields() {
        application.persistCurrentUser(ifItIs: self)
    }

    /// A fetch (`GET /users/<id>`) does not return the session token; the user keeps its own.
    override var keysKeptOnFetch: Set<String> { ["sessionToken"] }
}
