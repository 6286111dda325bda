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
    }

    /// Runs the host: `work` gets the blocking phases' report. Returns the status to exit with.
    func run(showReport: Bool, startsLaterPhases: Bool, _ work: (StartupReport) async -> Finish) async -> ExitCode {
        let initiator = runtime.manager.initiator
        let interruption = InterruptionRecord()
        events.setSignalHandler { number in
            interruption.record(number)
            initiator.cancel()
        }
        let showsProgress = runtime.console.errorIsTerminal ? !invocation.quiet : invocation.verbose
        let progress = showsProgress ? Task { await StartupProgress(console: runtime.console).show(initiator) } : nil
        var status: ExitCode
        do {
            status = try await runtime.manager.run(teardownTimeLimit: Self.teardownTimeLimit, startsLaterPhases: startsLaterPhases,
                                                   onTeardown: report) { startup in
                progress?.cancel()
                if showReport { print(startup) }
                // A signal that came as the blocking phases ended: nothing more starts.
                if let signal = interruption.signal { return Signals.exitCode(for: signal) }
                let finish = await work(startup)
                ShellEvents.restoreTerminal()
                if finish.waitsForLaterPhases { await waitForLaterPhases(initiator) }
                return finish.status
            }
        } catch {
            progress?.cancel()
            status = reportStartupFailure(error, showReport: showReport, signal: interruption.signal)
        }
        status = writeTrace(status)
        // A signal that came as the work ended (with the last line of input, say) is the status all the same.
        if let late = await Signals.settle() { interruption.record(late) }
        return interruption.signal.map(Signals.exitCode(for:)) ?? status
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
        if let report = error.report, showReport || error.code != .cancelled { print(report) }
        if error.code == .cancelled {
            let cancelled = error.report?.operations(in: .cancelled).count ?? 0
            console.error("startup interrupted; \(cancelled) operation\(cancelled == 1 ? "" : "s") cancelled")
            return Signals.exitCode(for: signal ?? SIGINT)
        }
        console.error(error.message)
        return .startupFailed
    }

    /// The report as a table, or under `--json` as one document.
    private func print(_ report: StartupReport) {
        let console = runtime.console
        if invocation.json {
            console.json("startupReport", report)
        } else {
            console.out(report.renderTable(useColor: console.outputColor, width: invocation.full ? nil : TerminalWidth.current()))
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

/// The signal that interrupted the host, if any; written from the signal queue, read by the lifecycle.
final class InterruptionRecord: Sendable {
    private let value = Locked<Int32?>(nil)

    func record(_ number: Int32) { value.withLock { $0 = $0 ?? number } }
    var signal: Int32? { value.withLock { $0 } }
}
