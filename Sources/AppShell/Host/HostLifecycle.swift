#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The shell's host lifecycle: the library's one, ``ModuleManager/run(teardownTimeLimit:laterPhases:onTeardown:_:)``,
/// with what a terminal adds. Live progress while the blocking phases run, the report, a signal at any moment
/// (which cancels the run and ends the shell with 130 or 143 once all is shut down in order), each teardown
/// reported, and the trace written last.
struct HostLifecycle {
    let runtime: HostRuntime
    let events: ShellEvents
    let invocation: Invocation

    /// How long the later phases may keep running after the prompt ended normally.
    static let gracePeriod: Duration = .seconds(5)
    /// How long each module's asynchronous teardown may run before it is reported and no longer waited for.
    static let teardownTimeLimit: Duration = .seconds(5)

    /// Runs the host: `work` runs once the blocking phases have finished, shielded from the cancellation a signal
    /// brings (it sees the signal itself and winds down). Returns the status to exit with.
    func run(showReport: Bool, laterPhases: ModuleManager.LaterPhases,
             _ work: @escaping @Sendable (StartupReport) async -> ExitCode) async -> ExitCode {
        let (manager, console, invocation, events) = (runtime.manager, runtime.console, invocation, events)
        let showsProgress = console.errorIsTerminal ? !(invocation.quiet || invocation.startsQuietly) : invocation.verbose
        let progress = showsProgress ? Task { await showProgress(manager.initiator) } : nil
        let hosting = Task {
            try await manager.run(teardownTimeLimit: Self.teardownTimeLimit, laterPhases: laterPhases,
                                  onTeardown: report) { startup in
                progress?.cancel()
                if showReport { Listings(console: console).startupReport(startup, full: invocation.full) }
                // A signal that came as the blocking phases ended: nothing more starts.
                if let signal = events.signalReceived { return Signals.exitCode(for: signal) }
                let status = await Task { await work(startup) }.value
                TerminalEcho.standardInput.restore()
                if invocation.verbose, case .whileWorking(let grace) = laterPhases, events.signalReceived == nil {
                    console.diagnostic("waiting up to \(grace) for the later startup phases")
                }
                return status
            }
        }
        // A signal at any moment cancels the run: startup stops at once, and what was started is shut down in order.
        events.setSignalHandler { _ in hosting.cancel() }
        var status: ExitCode
        do {
            status = try await hosting.value
        } catch {
            progress?.cancel()
            status = reportStartupFailure(error, showReport: showReport, signal: events.signalReceived)
        }
        status = writeTrace(status)
        // A signal that came as the work ended (with the last line of input, say) is the status all the same.
        let late = await Signals.settle()
        return (events.signalReceived ?? late).map(Signals.exitCode(for:)) ?? status
    }

    /// Says why startup did not finish, and returns the status: 65 for an invalid plan, 70 for a failure, the
    /// signal's for an interruption.
    private func reportStartupFailure(_ error: any Error, showReport: Bool, signal: Int32?) -> ExitCode {
        let console = runtime.console
        guard let error = error as? InitiatorError else {
            // The one other failure `run` throws: an eager module that could not load.
            console.error("eager module failed to load: \(error)")
            return .startupFailed
        }
        if error.code == .invalidPlan {
            runtime.report(error)
            return .badManifest
        }
        if let report = error.report, showReport || error.code != .cancelled {
            Listings(console: console).startupReport(report, full: invocation.full)
        }
        if error.code == .cancelled {
            let cancelled = error.report?.operations(in: .cancelled).count ?? 0
            console.error("startup interrupted; \(cancelled) operation\(cancelled == 1 ? "" : "s") cancelled")
            return Signals.exitCode(for: signal ?? SIGINT)
        }
        console.error(error.message)
        return .startupFailed
    }

    /// Startup progress as it happens, until startup finishes or the task is cancelled: on a terminal updated in
    /// place (``ProgressBoard``), otherwise (under `--verbose`) a plain log of the events, one line each.
    private func showProgress(_ initiator: Initiator) async {
        let console = runtime.console
        var board = ProgressBoard(width: TerminalWidth.current()) { console.styled($0, $1, forError: true) }
        defer { console.diagnosticPartial(board.clear()) }
        for await event in initiator.events {
            if console.errorIsTerminal {
                console.diagnosticPartial(board.apply(event))
            } else {
                console.diagnostic(event.description)
            }
            if case .finished = event { return }
        }
    }

    /// Each module torn down: one that hung as a warning; under `--verbose`, every one.
    private func report(_ records: [ModuleManager.TeardownRecord]) {
        for record in records {
            if record.outcome == .timedOut {
                runtime.console.diagnostic("warning: \(record)")
            } else if invocation.verbose {
                runtime.console.diagnostic("unloaded \(record.module)")
            }
        }
    }

    /// Writes the startup trace if asked; a trace that cannot be written makes a successful run fail with 73.
    private func writeTrace(_ status: ExitCode) -> ExitCode {
        guard let tracePath = invocation.tracePath else { return status }
        do {
            try runtime.manager.initiator.report.chromeTrace().write(to: URL(fileURLWithPath: tracePath), options: .atomic)
        } catch {
            runtime.console.error("cannot write the trace to \(tracePath): \(error)")
            return status == .ok ? .cannotWrite : status
        }
        return status
    }
}
