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

/// Runs the initiator for the shell: eager modules, the blocking phases with live progress on a terminal,
/// and a clean stop (with the report) when a required operation fails or a signal arrives.
struct StartupRunner {
    let runtime: HostRuntime
    let events: ShellEvents
    let invocation: Invocation

    /// Whether the blocking phases succeeded, or the status to exit with after shutting down.
    enum Outcome {
        case started
        case stopped(ExitCode)
    }

    func run(showReport: Bool) async -> Outcome {
        let console = runtime.console
        let manager = runtime.manager
        for failure in manager.loadEagerModules() {
            console.error("eager module failed to load: \(failure)")
        }
        let initiator = manager.initiator
        let interruption = InterruptionRecord()
        events.setSignalHandler { number in
            interruption.record(number)
            initiator.cancel()
        }
        let showsProgress = console.errorIsTerminal ? !invocation.quiet : invocation.verbose
        let progress = showsProgress ? Task { await showProgress(initiator) } : nil
        defer { progress?.cancel() }

        do {
            let report = try await initiator.start()
            progress?.cancel()
            if showReport { printReport(report) }
            if let signal = interruption.signal { return .stopped(Self.exitCode(for: signal)) }
            return .started
        } catch let error as InitiatorError where error.code == .invalidPlan {
            runtime.report(error)
            return .stopped(.badManifest)
        } catch let error as InitiatorError {
            progress?.cancel()
            if let report = error.report, showReport || error.code != .cancelled { printReport(report) }
            if error.code == .cancelled {
                console.error("startup interrupted; \(error.report?.operations(in: .cancelled).count ?? 0) operations cancelled")
                return .stopped(Self.exitCode(for: interruption.signal ?? SIGINT))
            }
            console.error(error.message)
            return .stopped(.startupFailed)
        } catch {
            console.error("startup failed: \(error)")
            return .stopped(.startupFailed)
        }
    }

    /// The status a signal ends the shell with (``Signals/exitCode(for:)``).
    static func exitCode(for signal: Int32) -> ExitCode {
        Signals.exitCode(for: signal)
    }

    private func printReport(_ report: StartupReport) {
        let console = runtime.console
        if invocation.json {
            console.json("startupReport", report)
        } else {
            console.out(report.renderTable(useColor: console.outputColor, width: invocation.full ? nil : TerminalWidth.current()))
        }
    }

    /// On a terminal, progress updated in place (``ProgressBoard``); otherwise, under `--verbose`, a plain log of
    /// the events, one line each.
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
}

/// The signal that interrupted startup, if any; written from the signal queue, read by the runner.
final class InterruptionRecord: Sendable {
    private let value = Locked<Int32?>(nil)

    func record(_ number: Int32) { value.withLock { $0 = $0 ?? number } }
    var signal: Int32? { value.withLock { $0 } }
}
