import CirrusModel
public import Foundation

extension LCApplication {
    /// The server's clock (`GET /1.1/date`; Bmob's `getServerTimestamp`), to time-stamp what a device's clock cannot be
    /// trusted for.
    public func serverDate() async throws -> Date {
        let reply = try await RESTClient(application: self).send("GET", "/date", session: .token(nil))
        guard let date = ObjectDecoder.date(reply) else { throw LCError.malformed("The server's date reply has no date: \(reply).") }
        return date
    }

    /// The server's clock; `completion` gets it on `completionQueue`.
    @discardableResult
    public func serverDate(completionQueue: DispatchQueue = .main, completion: @escaping (LCValueResult<LCDate>) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { LCDate(try await self.serverDate()) }
    }

    /// The server's clock, blocking the calling thread.
    public func serverDate() -> LCValueResult<LCDate> {
        Call.wait { LCDate(try await self.serverDate()) }
    }
}
