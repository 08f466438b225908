import Testing

/// Runs a suite with a ``MotoServer`` started before its first test and stopped after its last, reachable as
/// ``MotoServer/running()`` inside the tests.
struct MotoServerTrait: SuiteTrait, TestScoping {
    /// Whether the server refuses requests that are not signed with its IAM user's key.
    var checkingSignatures: Bool

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try await MotoServer.start(checkingSignatures: checkingSignatures)
        do {
            try await MotoServer.$current.withValue(server) { try await function() }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

extension Trait where Self == MotoServerTrait {
    /// A moto S3 server for the suite, checking signatures unless told not to; the suite's tests fail, with the
    /// install command, when `moto_server` is missing.
    static func motoServer(checkingSignatures: Bool = true) -> Self { Self(checkingSignatures: checkingSignatures) }
}
