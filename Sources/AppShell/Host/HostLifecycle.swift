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

/// The shell's host lifecycle: the library's one, ``ModuleManager/run(teardownTimeLimit:startsLaterPhases:onTeardown:_:)``,
/// with what a terminal adds. Live progress while the blocking phases run, the report, a signal at any moment
/// (which cancels what runs and ends the shell with 130 or 143 once all is shut down in order), a grace period for
/// the later phases when the work ends normally, each teardown reported, and the trace written last.
struct HostLifecycle {
    let runtime: HostRuntime
    let events: ShellEvents
    let invocation: Invocation

    /// How long the later phases may keep running after the work ended normally.
    static let gracePeriod: Duration = .seconds(5)
    /// How long each module's asynchronous teardown may run before it is reported and no longer waited for.
    static let teardownTimeLimit: Duration = .seconds(5)

    /// How the host's work ended: the status to exit with, and whether the later phases get their grace period.
    struct Finish {
        let status: ExitCode
        var waitsForLaterPhases = false

        /// Ended by a signal: its status (130 or 143).
        static func signal(_ number: Int32) -> Finish { Finish(status: Signals.exitCode(for: number)) }
    }

    /// Runs the host: `work` runs once the blocking phases have finished. Returns the status to exit with.
    func run(showReport: Bool, startsLaterPhases: Bool, _ work: () async -> Finish) async -> ExitCode {
        let initiator = runtime.manager.initiator
        events.setSignalHandler { _ in initiator.cancel() }
        let showsProgress = runtime.console.errorIsTerminal ? !invocation.quiet : invocation.verbose
        let progress = showsProgress ? Task { await showProgress(initiator) } : nil
        var status: ExitCode
        do {
            status = try await runtime.manager.run(teardownTimeLimit: Self.teardownTimeLimit, startsLaterPhases: startsLaterPhases,
                                                   onTeardown: report) { startup in
                progress?.cancel()
                if showReport { Listings(console: runtime.console).startupReport(startup, full: invocation.full) }
                // A signal that came as the blocking phases ended: nothing more starts.
                if let signal = events.signalReceived { return Signals.exitCode(for: signal) }
                let finish = await work()
                TerminalEcho.standardInput.restore()
                if finish.waitsForLaterPhases { await waitForLaterPhases(initiator) }
                return finish.status
            }
        } catch {
            progress?.cancel()
            status = reportStartupFailure(error, showReport: showReport, signal: events.signalReceived)
        }
        status = writeTrace(status)
        // A signal that came as the work ended (with the last line of input, say) is the status all the same.
        let late = await Signals.settle()
        return (events.signalReceived ?? late).map(Signals.exitCode(for:)) ?? status
    }

    /// Gives the later phases up to ``gracePeriod`` to finish; a signal meanwhile cancels them (the handler does).
    private func waitForLaterPhases(_ initiator: Initiator) async {
        if invocation.verbose { runtime.console.diagnostic("waiting up to \(Self.gracePeriod) for the later startup phases") }
        let deadline = Task {
            try await Task.sleep(for: Self.gracePeriod)
            initiator.cancel()
        }
        _ = await initiator.waitUntilFinished()
        deadline.cancel()
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
