public import Foundation

// The completion-handler and blocking forms of LCObject's calls.
extension LCObject {
    /// Saves the object; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func save(
        options: [SaveOption] = [], completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.save(options: options) }
    }

    /// Saves the object, blocking the calling thread.
    @discardableResult
    public func save(options: [SaveOption] = []) -> LCBooleanResult {
        Call.wait { try await self.save(options: options) }
    }

    /// Fetches the object; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func fetch(
        keys: [String]? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.fetch(keys: keys) }
    }

    /// Fetches the object, blocking the calling thread.
    public func fetch(keys: [String]? = nil) -> LCBooleanResult {
        Call.wait { try await self.fetch(keys: keys) }
    }

    /// Deletes the object; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func delete(completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.delete() }
    }

    /// Deletes the object, blocking the calling thread.
    @discardableResult
    public func delete() -> LCBooleanResult {
        Call.wait { try await self.delete() }
    }

    /// Saves `objects` with batch requests; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func save(
        _ objects: [LCObject], options: [SaveOption] = [], completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await save(objects, options: options) }
    }

    /// Saves `objects` with batch requests, blocking the calling thread.
    public static func save(_ objects: [LCObject], options: [SaveOption] = []) -> LCBooleanResult {
        Call.wait { try await save(objects, options: options) }
    }

    /// Deletes `objects` with one batch request; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func delete(
        _ objects: [LCObject], completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await delete(objects) }
    }

    /// Deletes `objects` with one batch request, blocking the calling thread.
    @discardableResult
    public static func delete(_ objects: [LCObject]) -> LCBooleanResult {
        Call.wait { try await delete(objects) }
    }

    /// Fetches `objects` with one batch request; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func fetch(
        _ objects: [LCObject], completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await fetch(objects) }
    }

    /// Fetches `objects` with one batch request, blocking the calling thread.
    public static func fetch(_ objects: [LCObject]) -> LCBooleanResult {
        Call.wait { try await fetch(objects) }
    }
}

// The completion-handler and blocking forms of fetchIfNeeded.
extension LCObject {
    /// Fetches the object unless its data is here; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func fetchIfNeeded(
        keys: [String]? = nil, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.fetchIfNeeded(keys: keys) }
    }

    /// Fetches the object unless its data is here, blocking the calling thread.
    @discardableResult
    public func fetchIfNeeded(keys: [String]? = nil) -> LCBooleanResult {
        Call.wait { try await self.fetchIfNeeded(keys: keys) }
    }
}
