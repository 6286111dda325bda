/// Runs a command until it finishes or a signal arrives, whichever comes first, so Ctrl-C and SIGTERM stop the
/// shell in order even while a module's command is busy. On a signal the command's task is cancelled and not
/// waited for: a command that ignores cancellation cannot hold the shutdown hostage.
enum SignalRace {
    enum Outcome: Sendable, Equatable {
        case finished(ExitCode)
        case signal(Int32)
    }

    /// Runs `body`, racing it against the signals `events` catches.
    static func run(_ events: ShellEvents, _ body: @escaping @Sendable () async -> ExitCode) async -> Outcome {
        await run(installingHandler: events.setSignalHandler, body)
    }

    /// Runs `body`, racing it against the signals passed to the handler that `install` receives (and then
    /// replaces with one that does nothing).
    static func run(
        installingHandler install: (@escaping @Sendable (Int32) -> Void) -> Void,
        _ body: @escaping @Sendable () async -> ExitCode
    ) async -> Outcome {
        let (outcomes, continuation) = AsyncStream.makeStream(of: Outcome.self, bufferingPolicy: .bufferingOldest(1))
        install { number in continuation.yield(.signal(number)) }
        defer { install { _ in } }
        let work = Task {
            continuation.yield(.finished(await body()))
        }
        var iterator = outcomes.makeAsyncIterator()
        let first = await iterator.next() ?? .finished(.failure)
        if case .signal = first { work.cancel() }
        continuation.finish()
        return first
    }
}
