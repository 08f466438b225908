import Foundation

/// Reads the kernel's TCP socket table (`/proc/net/tcp`) to learn whether a server has read what a client sent.
enum KernelSocketTable {
    /// Bytes that arrived on the server's end of the connection `clientPort -> serverPort` and that the server
    /// process has not read yet; `nil` when the connection is not in the table (or the table is unavailable).
    static func unreadBytes(serverPort: Int, clientPort: Int) -> Int? {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return nil }
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, port(of: fields[1]) == serverPort, port(of: fields[2]) == clientPort else { continue }
            let queues = fields[4].split(separator: ":")
            guard queues.count == 2 else { return nil }
            return Int(queues[1], radix: 16)
        }
        return nil
    }

    /// Waits until the server has read every byte the client sent on that connection.
    /// - Throws: when that has not happened within a minute.
    static func waitUntilRead(serverPort: Int, clientPort: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while unreadBytes(serverPort: serverPort, clientPort: clientPort) != 0 {
            guard ContinuousClock.now < deadline else {
                throw LiveTestError(description: "The server did not read the request on port \(clientPort) within a minute.")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The port of an `ADDRESS:PORT` entry, both in hex.
    private static func port(of entry: Substring) -> Int? {
        entry.split(separator: ":").last.flatMap { Int($0, radix: 16) }
    }
}
