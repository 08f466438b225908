import CirrusModel
import CirrusServices

/// A web console session, held by the browser in an `HttpOnly` cookie sealed under a key derived from the master key
/// (``JSONSeal``): stateless, so any instance of the app accepts it, and void once the master key changes.
///
/// A session signed in with the master key is an administrator's until it expires. One signed in with a password
/// carries the user's session token: its role is looked up again on each request, and revoking the session (or the
/// role) ends it. The CSRF token is a MAC of the sealed cookie: the page gets it at sign-in and keeps it in memory
/// only, and every request that changes something must send it back in ``csrfHeader``.
struct DashboardSession: Sendable, Hashable {
    enum Signer: Sendable, Hashable {
        case masterKey
        case user(name: String, sessionToken: String)
    }

    var signer: Signer
    /// The role at sign-in; a user's is checked again on each request.
    var role: DashboardService.Role
    var expiresAt: Timestamp

    /// How long a console session lasts.
    static let lifetimeMilliseconds: Int64 = 12 * 3600 * 1000
    static let cookieName = "cirrus_dashboard"
    static let csrfHeader = "X-Cirrus-CSRF"

    /// Who signed in, for the action log and the page: `master key` or the username.
    var name: String {
        switch signer {
        case .masterKey: "master key"
        case .user(let name, _): name
        }
    }
}

/// Seals and opens ``DashboardSession``s and derives their CSRF tokens.
struct DashboardSessionCodec: Sendable {
    private let seal: JSONSeal

    init(masterKey: String) {
        seal = JSONSeal(masterKey: masterKey, purpose: "cirrus dashboard session")
    }

    func seal(_ session: DashboardSession) -> String {
        var members: [String: JSON] = ["r": .string(session.role.rawValue), "x": .int(session.expiresAt.millisecondsSince1970)]
        if case .user(let name, let token) = session.signer {
            members["u"] = .string(name)
            members["t"] = .string(token)
        }
        return seal.seal(members)
    }

    /// The session a cookie value holds, if it is genuine and not expired.
    func open(_ text: String, now: Timestamp) -> DashboardSession? {
        guard let members = seal.open(text), let role = members["r"]?.stringValue.flatMap(DashboardService.Role.init),
            let expiry = members["x"]?.intValue, now.millisecondsSince1970 < expiry
        else { return nil }
        var signer = DashboardSession.Signer.masterKey
        if let name = members["u"]?.stringValue {
            guard let token = members["t"]?.stringValue else { return nil }
            signer = .user(name: name, sessionToken: token)
        }
        return DashboardSession(signer: signer, role: role, expiresAt: Timestamp(millisecondsSince1970: expiry))
    }

    /// The CSRF token of a sealed session (its cookie value).
    func csrfToken(forCookie cookie: String) -> String {
        seal.mac(Array("csrf\u{0}\(cookie)".utf8))
    }

    /// Whether `token` is the CSRF token of the cookie, compared in constant time.
    func isCSRFToken(_ token: String, forCookie cookie: String) -> Bool {
        seal.isMAC(token, of: Array("csrf\u{0}\(cookie)".utf8))
    }
}
