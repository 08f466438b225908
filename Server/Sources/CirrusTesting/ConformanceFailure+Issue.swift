import Testing

extension ConformanceFailure {
    /// Runs `body`, recording a failed conformance expectation as a test issue at the line of the suite that states it
    /// (rather than at the test that ran the check); other errors are thrown.
    package static func recordingIssues(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as ConformanceFailure {
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(fileID: failure.fileID, filePath: failure.filePath, line: failure.line, column: failure.column)
            )
        }
    }
}
