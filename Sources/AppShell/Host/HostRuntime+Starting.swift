#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState

/// Loading for the subcommands that start modules: the manifest read on a thread of its own while
/// ``ShellEvents`` catches signals, and the host environment the modules will see.
extension HostRuntime {
    /// Reads and registers the manifest on a thread of its own; a signal meanwhile ends the program at once with
    /// 130 or 143, saying so (nothing is loaded while the manifest is read, so nothing needs unloading). Then
    /// provides the host environment, and `events` takes the signals again.
    static func load(_ invocation: Invocation, console: Console, events: ShellEvents) async throws(Stop) -> HostRuntime {
        announceReading(invocation, console: console)
        Signals.react(.exit(message: console.errorLine(interruptedWhileReading)))
        defer { events.takeSignals() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<HostRuntime, Stop>, Never>) in
            DetachedThread.start(name: "app-shell manifest") {
                continuation.resume(returning: Result { () throws(Stop) in
                    let runtime = try load(invocation, console: console)
                    runtime.provideHostEnvironment(invocation)
                    return runtime
                })
            }
        }
        return try result.get()
    }

    /// What a signal while the manifest is read says before the program ends.
    static let interruptedWhileReading = "interrupted while reading the manifest"

    /// Provides the ``HostEnvironment`` the modules resolve: the state directory (`--state-dir`, default
    /// `.app-shell` in the working directory: the shell names its own folder, ModuleHostState has no default; each
    /// module keeps its files in a folder of its own in it), the manifest's folder, and notices printed as warnings
    /// (and, unless quiet, as notes).
    func provideHostEnvironment(_ invocation: Invocation) {
        let stateDirectory = URL(fileURLWithPath: AbsolutePath.resolving(invocation.stateDirectory ?? ".app-shell"), isDirectory: true)
        let manifestDirectory = URL(fileURLWithPath: manifestPath, isDirectory: false).deletingLastPathComponent()
        let console = console
        let environment = HostEnvironment(stateDirectory: stateDirectory, manifestDirectory: manifestDirectory) { notice in
            switch notice.severity {
            case .warning: console.warning("[\(notice.module)] \(notice.message)")
            case .info: if !invocation.quiet { console.diagnostic("note: [\(notice.module)] \(notice.message)") }
            }
        }
        manager.provide(environment, as: HostEnvironment.self)
    }
}
