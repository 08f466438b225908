package import CirrusModel

/// The settings the services need, filled by the server from flags and environment.
package struct ServiceConfiguration: Sendable {
    /// The largest object accepted, in bytes of its JSON document.
    package var maximumObjectSize: Int
    /// The largest batch accepted in one request.
    package var maximumBatchSize: Int
    /// Passwords, sessions and lock-out.
    package var accounts: AccountSettings
    /// Decides whether third-party log-in data may log in or be linked: by default ``AuthDataPolicy`` with default
    /// settings, which accepts anonymous log-ins only.
    package var authDataValidator: any AuthDataValidator
    /// What the `url` of an uploaded file starts with (`http://127.0.0.1:3000/files`); `nil` leaves rows as stored.
    package var fileURLBase: String?
    /// The bounds of queries, includes and regular expressions.
    package var queryLimits = QueryLimits()
    /// The app's cloud-code engine, whose hooks run around writes; `nil` for none (and for `cirrus import`, whose
    /// writes fire no hooks, as LeanCloud's console import).
    package var engine: CloudEngine?

    package init(
        maximumObjectSize: Int = 131_072, maximumBatchSize: Int = 1000, accounts: AccountSettings = AccountSettings(),
        authDataValidator: (any AuthDataValidator)? = nil
    ) {
        self.maximumObjectSize = maximumObjectSize
        self.maximumBatchSize = maximumBatchSize
        self.accounts = accounts
        self.authDataValidator = authDataValidator ?? AuthDataPolicy()
    }
}
