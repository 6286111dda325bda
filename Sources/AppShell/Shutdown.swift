#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// Shuts the app down in order: lets (or makes) the later startup phases finish, unloads the modules in
/// reverse load order, and writes the startup trace if asked.
struct Shutdown {
    let runtime: HostRuntime
    let tracePath: String?
    /// Whether to report each module unloaded, in order, on standard error.
    var verbose = false
    /// The shell's signals: while later phases are given their grace period, a signal cuts it short.
    var events: ShellEvents?
    /// How long later phases may keep running after the user quits.
    static let gracePeriod: Duration = .seconds(5)
    /// How long each module's asynchronous teardown may run before it is reported and no longer waited for.
    static let teardownTimeLimit: Duration = .seconds(5)

    /// Shuts down and returns the status to exit with: `code`, or 130/143 if a signal arrived (before or during
    /// the shutdown, which still completes in order).
    func perform(_ code: ExitCode, cancelRemaining: Bool = false) async -> ExitCode {
        let initiator = runtime.manager.initiator
        ShellEvents.restoreTerminal()
        let interruption = InterruptionRecord()
        events?.setSignalHandler { number in
            interruption.record(number)
            initiator.cancel()
        }
        let status = await unload(code, cancelRemaining: cancelRemaining)
        return interruption.signal.map(StartupRunner.exitCode(for:)) ?? status
    }

    private func unload(_ code: ExitCode, cancelRemaining: Bool) async -> ExitCode {
        let initiator = runtime.manager.initiator
        if cancelRemaining {
            // Cancelled operations are not waited for by the initiator, but its bookkeeping is: the report and the
            // trace below are then complete.
            initiator.cancel()
            _ = await initiator.waitUntilFinished()
        } else {
            if verbose { runtime.console.diagnostic("waiting up to \(Self.gracePeriod) for the later startup phases") }
            let deadline = Task {
                try await Task.sleep(for: Self.gracePeriod)
                initiator.cancel()
            }
            _ = await initiator.waitUntilFinished()
            deadline.cancel()
        }
        // Each module's asynchronous teardown is awaited, up to its time limit; one that hangs is reported.
        for record in await runtime.manager.unloadAll(teardownTimeLimit: Self.teardownTimeLimit) {
            if record.outcome == .timedOut {
                runtime.console.diagnostic("warning: \(record)")
            } else if verbose {
                runtime.console.diagnostic("unloaded \(record.module)")
            }
        }
        guard let tracePath else { return code }
        do {
            let url = URL(fileURLWithPath: tracePath)
            try initiator.report.chromeTrace().write(to: url, options: .atomic)
        } catch {
            runtime.console.error("cannot write the trace to \(tracePath): \(error)")
            return code == .ok ? .cannotWrite : code
        }
        return code
    }
}
