#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one command until it finishes, racing it against the signals that end the shell and, at the interactive
/// prompt, against Ctrl-C.
///
/// - A signal cancels the command's task and wins at once: a command that ignores cancellation cannot hold the
///   shutdown hostage.
/// - A Ctrl-C cancels the command's task and waits for it to end: then the command was interrupted. If it is still
///   running after ``gracePeriod``, `stillRunning` is called (to say so); a second Ctrl-C while it runs ends the
///   shell as SIGINT does.
/// - A Ctrl-C that came after the command's line was read but before the command started means it never starts.
enum CommandRace {
    /// How the race ended.
    enum Outcome: Sendable, Equatable {
        case finished(ExitCode)
        /// Ctrl-C cancelled the command, which then ended (or never started).
        case interrupted
        case signal(Int32)
    }

    /// How long a command has to end once Ctrl-C cancelled it, before it is reported as still running.
    static let gracePeriod: Duration = .seconds(1)

    private enum Note: Sendable {
        case finished(ExitCode), signal(Int32), interrupt, graceOver
    }

    /// Installs (or, with `nil`, removes) the Ctrl-C handler; whether a Ctrl-C had already come for this command.
    typealias Interrupts = ((@Sendable () -> Void)?) -> Bool

    /// Runs `body`, racing it against the signals passed to the handler `signals` receives (then replaced with one
    /// that does nothing) and the Ctrl-C passed to the handler `interrupts` receives.
    static func run(signals install: (@escaping @Sendable (Int32) -> Void) -> Void, interrupts: Interrupts?,
                    grace: Duration = gracePeriod, stillRunning: @escaping @Sendable () -> Void = {},
                    _ body: @escaping @Sendable () async -> ExitCode) async -> Outcome {
        let (notes, continuation) = AsyncStream.makeStream(of: Note.self)
        install { number in continuation.yield(.signal(number)) }
        defer { install { _ in } }
        if interrupts?({ continuation.yield(.interrupt) }) == true {
            _ = interrupts?(nil)
            return .interrupted
        }
        defer { _ = interrupts?(nil) }
        let work = Task { continuation.yield(.finished(await body())) }
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        var interrupted = false
        for await note in notes {
            switch note {
            case .finished(let code):
                return interrupted ? .interrupted : .finished(code)
            case .signal(let number):
                work.cancel()
                return .signal(number)
            case .interrupt where !interrupted:
                interrupted = true
                work.cancel()
                timer = Task {
                    try? await Task.sleep(for: grace)
                    if !Task.isCancelled { continuation.yield(.graceOver) }
                }
            case .interrupt:
                return .signal(SIGINT)
            case .graceOver:
                stillRunning()
            }
        }
        return .finished(.failure)
    }
}
