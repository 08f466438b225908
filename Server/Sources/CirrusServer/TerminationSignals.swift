import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGTERM and SIGINT for `cirrus serve`, caught by a handler installed at once (``catchFromNow()``), not by a
/// dispatch signal source: a source's handler is installed later, on dispatch's own thread, and a SIGTERM that a
/// loaded machine delivers before then would end a server that already answers with no graceful shutdown at all.
///
/// Before the server runs (while it opens its store and migrates), a signal ends the process as it would without a
/// handler. Once it runs (``markServing()``), a signal is written to a pipe that ``next()`` reads, and the server
/// shuts down gracefully.
public enum TerminationSignals {
    /// Installs the handler for SIGTERM and SIGINT. Call it once, first thing.
    public static func catchFromNow() {
        _ = pipe
        for signalNumber in [SIGTERM, SIGINT] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handle
            #else
            action.__sigaction_u.__sa_handler = handle
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signalNumber, &action, nil)
        }
        installed.store(true, ordering: .releasing)
    }

    /// Whether ``catchFromNow()`` was called: only then do signals reach ``next()``.
    static var isInstalled: Bool { installed.load(ordering: .acquiring) }

    /// From now on a signal asks for a graceful shutdown instead of ending the process.
    static func markServing() {
        serving.store(true, ordering: .releasing)
    }

    /// Returns when a signal has arrived since the server began to run (at once for one already waiting).
    static func next() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reader = Thread {
                var byte: UInt8 = 0
                while read(pipe.read, &byte, 1) < 0, errno == EINTR {}
                continuation.resume()
            }
            reader.name = "cirrus-signals"
            reader.start()
        }
    }

    private static let installed = Atomic<Bool>(false)
    private static let serving = Atomic<Bool>(false)
    private static let pipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let made = Glibc.pipe(&ends)
        #else
        let made = Darwin.pipe(&ends)
        #endif
        guard made == 0 else { fatalError("cannot create the signal pipe: errno \(errno)") }
        return (ends[0], ends[1])
    }()

    /// Async-signal-safe: atomic loads, `write`, `signal` and `raise` only.
    private static let handle: @convention(c) (Int32) -> Void = { signalNumber in
        if serving.load(ordering: .acquiring) {
            var byte = UInt8(truncatingIfNeeded: signalNumber)
            _ = write(pipe.write, &byte, 1)
        } else {
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
        }
    }
}
