import CirrusModel
public import Foundation

// The completion-handler forms of third-party log-in and of a user's roles.
extension LCUser {
    /// Logs in with a third-party account; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func logIn(
        authData: [String: Any], platform: AuthDataPlatform, unionID: String? = nil, unionIDPlatform: AuthDataPlatform? = nil,
        options: AuthDataOptions = [], completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        let json = Result { try Self.json(authData, unionID: unionID, unionIDPlatform: unionIDPlatform, options: options) }
        return Call.start(on: completionQueue, completion: completion) {
            try await self.logIn(json: json.get(), platform: platform, options: options)
        }
    }

    /// Logs in as a new anonymous user; `completion` gets `.success(object: user)` or `.failure(error:)`.
    @discardableResult
    public static func logInAnonymously(
        application: LCApplication = .default, completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<LCUser>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await logInAnonymously(application: application) }
    }

    /// Links a third-party account; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func associate(
        authData: [String: Any], platform: AuthDataPlatform, unionID: String? = nil, unionIDPlatform: AuthDataPlatform? = nil,
        options: AuthDataOptions = [], completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        let json = Result { try Self.json(authData, unionID: unionID, unionIDPlatform: unionIDPlatform, options: options) }
        return Call.start(on: completionQueue, completion: completion) { try await self.link(platform, json.get()) }
    }

    /// Unlinks a third-party account; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func disassociate(
        authData platform: AuthDataPlatform, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.link(platform, nil) }
    }

    /// Finds the user's roles; `completion` gets `.success(objects:)` or `.failure(error:)` on `completionQueue`.
    @discardableResult
    public func getRoles(completionQueue: DispatchQueue = .main, completion: @escaping (LCQueryResult<LCRole>) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.getRoles() }
    }
}
