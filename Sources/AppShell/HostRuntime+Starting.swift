#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// Loading for the subcommands that start modules: the manifest read on a thread of its own while
/// ``ShellEvents`` catches signals, and the host environment the modules will see.
extension HostRuntime {
    /// Reads and registers the manifest on a thread of its own, racing the signals `events` catches: a signal
    /// stops the wait at once with 130 (SIGINT) or 143 (SIGTERM). Nothing is loaded while the manifest is read, so
    /// nothing needs unloading; the reading thread is left to end with the process. Then provides the host
    /// environment.
    static func load(_ invocation: Invocation, console: Console, events: ShellEvents) async throws(Stop) -> HostRuntime {
        announceReading(invocation, console: console)
        let (outcomes, continuation) = AsyncStream.makeStream(of: Result<HostRuntime, Stop>.self, bufferingPolicy: .bufferingOldest(1))
        let interrupted = InterruptionRecord()
        events.setSignalHandler { number in
            interrupted.record(number)
            continuation.yield(.failure(Stop(code: StartupRunner.exitCode(for: number))))
        }
        defer { events.setSignalHandler { _ in } }
        manifestReaders.withLock { $0 += 1 }
        DetachedThread.start(name: "app-shell manifest") {
            continuation.yield(Result { () throws(Stop) in
                let runtime = try load(invocation, console: console)
                runtime.provideHostEnvironment(invocation)
                return runtime
            })
            manifestReaders.withLock { $0 -= 1 }
        }
        var iterator = outcomes.makeAsyncIterator()
        let first = await iterator.next() ?? .failure(Stop(code: .failure))
        continuation.finish()
        if interrupted.signal != nil, case .failure = first { console.error("interrupted while reading the manifest") }
        return try first.get()
    }

    /// How many manifest readers are still at work. A signal can end the program while one is (hashing a large
    /// plugin, say); the process then ends with `_exit`, since running the C library's exit handlers under a
    /// thread still at work can crash it.
    static let manifestReaders = Locked(0)

    /// Provides the ``HostEnvironment`` the modules resolve: the state directory (`--state-dir`, default
    /// `.app-shell` in the working directory), the manifest's folder, and notices printed as warnings (and, unless
    /// quiet, as notes).
    func provideHostEnvironment(_ invocation: Invocation) {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let stateDirectory = invocation.stateDirectory.map {
            URL(fileURLWithPath: $0, isDirectory: true, relativeTo: workingDirectory).standardizedFileURL
        } ?? workingDirectory.appendingPathComponent(".app-shell", isDirectory: true)
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
