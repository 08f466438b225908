/// The result of a call that returns nothing: `.success` or `.failure(error:)`.
public enum LCBooleanResult: Sendable {
    case success
    case failure(error: LCError)

    /// Whether the call succeeded.
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// Whether the call failed.
    public var isFailure: Bool { !isSuccess }

    /// The error of a failure.
    public var error: LCError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The result of a call that returns one value: `.success(object:)` or `.failure(error:)`.
public enum LCValueResult<Value: Sendable>: Sendable {
    case success(object: Value)
    case failure(error: LCError)

    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    public var isFailure: Bool { !isSuccess }

    /// The value of a success.
    public var object: Value? {
        if case .success(let object) = self { return object }
        return nil
    }

    public var error: LCError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The result of a query: `.success(objects:)` or `.failure(error:)`.
public enum LCQueryResult<Element: Sendable>: Sendable {
    case success(objects: [Element])
    case failure(error: LCError)

    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    public var isFailure: Bool { !isSuccess }

    /// The objects of a success.
    public var objects: [Element]? {
        if case .success(let objects) = self { return objects }
        return nil
    }

    public var error: LCError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The result of a count: `.success(count:)` or `.failure(error:)`.
public enum LCCountResult: Sendable {
    case success(count: Int)
    case failure(error: LCError)

    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    public var isFailure: Bool { !isSuccess }

    /// The count of a success, `0` for a failure.
    public var intValue: Int {
        if case .success(let count) = self { return count }
        return 0
    }

    public var error: LCError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A result built from what an `async throws` call returned or threw.
protocol CallResult: Sendable {
    associatedtype Success: Sendable
    init(success: Success)
    init(failure: LCError)
    /// The error of a failure.
    var error: LCError? { get }
}

extension LCBooleanResult: CallResult {
    init(success: Void) { self = .success }
    init(failure: LCError) { self = .failure(error: failure) }
}

extension LCValueResult: CallResult {
    init(success: Value) { self = .success(object: success) }
    init(failure: LCError) { self = .failure(error: failure) }
}

extension LCQueryResult: CallResult {
    init(success: [Element]) { self = .success(objects: success) }
    init(failure: LCError) { self = .failure(error: failure) }
}

extension LCCountResult: CallResult {
    init(success: Int) { self = .success(count: success) }
    init(failure: LCError) { self = .failure(error: failure) }
}

