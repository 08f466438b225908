import ArgumentParser
import CirrusServer
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cirrus`: a self-hosted backend speaking the LeanCloud, Parse and Bmob REST dialects.
struct CirrusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cirrus",
        abstract: "A self-hosted backend wire-compatible with LeanCloud, Parse and Bmob.",
        version: CirrusVersion.current,
        subcommands: [ServeCommand.self, IndexCommand.self, SearchCommand.self, ImportCommand.self, ExportCommand.self, JobsCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}

/// The process's entry: the command runs as a task while the main thread waits for it.
///
/// Swift's `async` main would park the main thread in `dispatch_main`, which valgrind 3.19 cannot follow (it crashes
/// at start), and bench/instructions.sh counts the server's instructions under valgrind. Nothing in the server runs on
/// the main queue, so the main thread has nothing else to do but take the termination signals (`dispatch_main`
/// unblocked every signal on it; here that is done for the two the server handles).
@main
enum CirrusMain {
    static func main() {
        // The main thread takes SIGTERM and SIGINT (`TerminationSignals`): every other thread (dispatch's, NIO's)
        // blocks signals, and a parent may have blocked them too (a test harness does) before starting the process.
        var termination = sigset_t()
        sigemptyset(&termination)
        sigaddset(&termination, SIGTERM)
        sigaddset(&termination, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &termination, nil)
        let finished = DispatchSemaphore(value: 0)
        // Detached: a task made here would inherit the main actor, whose queue this thread never drains.
        Task.detached {
            await CirrusCommand.main()
            finished.signal()
        }
        finished.wait()
    }
}
