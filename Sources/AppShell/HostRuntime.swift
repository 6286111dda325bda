#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// The loaded app: the manager built from the manifest, with the host environment injected.
struct HostRuntime: Sendable {
    let manager: ModuleManager
    let manifestURL: URL
    let console: Console
    /// How manifest and plan problems are printed.
    var diagnosticOutput: DiagnosticOutput = .text
    /// The manifest's warnings (`validate --json` lists them with its verdict).
    var warnings: [ManifestDiagnostic] = []

    /// How problems are printed: as text, as `diagnostic` documents on standard error (`--json`), or inside the
    /// one `validation` document on standard output (`validate --json`).
    enum DiagnosticOutput: Sendable {
        case text, jsonLines, validationDocument

        init(_ invocation: Invocation) {
            self = !invocation.json ? .text : invocation.command == .validate ? .validationDocument : .jsonLines
        }
    }

    /// A reason to stop, with the exit status to stop with.
    struct Stop: Error {
        let code: ExitCode
    }

    /// Reads and registers the manifest on a thread of its own, racing the signals `events` catches: a signal
    /// stops the wait at once with 130 (SIGINT) or 143 (SIGTERM). Nothing is loaded while the manifest is read, so
    /// nothing needs unloading; the reading thread is left to end with the process.
    static func load(_ invocation: Invocation, console: Console, events: ShellEvents,
                     loadingPlugins: Bool = true) async throws(Stop) -> HostRuntime {
        if invocation.verbose { console.diagnostic("reading \(manifestURL(of: invocation).path)") }
        let (outcomes, continuation) = AsyncStream.makeStream(of: Result<HostRuntime, Stop>.self, bufferingPolicy: .bufferingOldest(1))
        let interrupted = InterruptionRecord()
        events.setSignalHandler { number in
            interrupted.record(number)
            continuation.yield(.failure(Stop(code: StartupRunner.exitCode(for: number))))
        }
        defer { events.setSignalHandler { _ in } }
        manifestReaders.withLock { $0 += 1 }
        DetachedThread.start(name: "app-shell manifest") {
            continuation.yield(Result { () throws(Stop) in try load(invocation, console: console, loadingPlugins: loadingPlugins) })
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

    /// Reads and registers the manifest; prints every problem and stops with 65 (invalid) or 66 (not found).
    /// Without `loadingPlugins` (for `validate`), plugin libraries are checked by reading them and not loaded.
    static func load(_ invocation: Invocation, console: Console, loadingPlugins: Bool = true) throws(Stop) -> HostRuntime {
        let workingDirectory = Self.workingDirectory
        let manifestURL = Self.manifestURL(of: invocation)
        let stateDirectory = invocation.stateDirectory.map {
            URL(fileURLWithPath: $0, isDirectory: true, relativeTo: workingDirectory).standardizedFileURL
        } ?? workingDirectory.appendingPathComponent(".app-shell", isDirectory: true)
        let manager = ModuleManager(reservedCommandNames: ShellCommands.reservedNames)
        let environment = HostEnvironment(
            stateDirectory: stateDirectory, manifestDirectory: manifestURL.deletingLastPathComponent()
        ) { notice in
            switch notice.severity {
            case .warning: console.warning("[\(notice.module)] \(notice.message)")
            case .info: if !invocation.quiet { console.diagnostic("note: [\(notice.module)] \(notice.message)") }
            }
        }
        manager.provide(environment, as: HostEnvironment.self)
        let output = DiagnosticOutput(invocation)
        var runtime = HostRuntime(manager: manager, manifestURL: manifestURL, console: console, diagnosticOutput: output)
        do {
            runtime.warnings = loadingPlugins ? try manager.registerModules(withConfigFilePath: manifestURL)
                : try manager.registerModulesWithoutPlugins(withConfigFilePath: manifestURL)
            if output != .validationDocument { runtime.warnings.forEach { runtime.print($0) } }
        } catch {
            let code: ExitCode = error.isFileNotFound ? .manifestNotFound : .badManifest
            switch output {
            case .text:
                error.diagnostics.forEach { runtime.print($0) }
                console.diagnostic(error.summary)
            case .jsonLines:
                error.diagnostics.forEach { runtime.print($0) }
                console.jsonError(error.summary, exitStatus: code)
            case .validationDocument:
                runtime.printVerdict(error.diagnostics.map(DiagnosticPayload.init), plan: nil)
            }
            throw Stop(code: code)
        }
        return runtime
    }

    /// One diagnostic, as text or as a `diagnostic` document on standard error.
    func print(_ diagnostic: ManifestDiagnostic) {
        if diagnosticOutput == .text {
            console.diagnostic(Self.render(diagnostic, console: console))
        } else {
            console.json("diagnostic", DiagnosticPayload(diagnostic), toError: true)
        }
    }

    /// `validate --json`'s one document: valid or not, the counts when known, and every diagnostic.
    func printVerdict(_ diagnostics: [DiagnosticPayload], plan: StartupPlan?) {
        let all = warnings.map(DiagnosticPayload.init) + diagnostics
        console.json("validation", ValidationPayload(
            file: manifestURL.path, valid: !all.contains { $0.severity == "error" },
            modules: plan.map { _ in manager.modules.count }, startupOperations: plan?.operationCount, diagnostics: all))
    }

    /// The commands the manifest's modules declare, or `nil` when the manifest cannot be registered; prints nothing.
    static func moduleCommandsQuietly(_ invocation: Invocation) -> [(module: ModuleIdentifier, command: ModuleCommand)]? {
        let manager = ModuleManager(reservedCommandNames: ShellCommands.reservedNames)
        guard (try? manager.registerModules(withConfigFilePath: manifestURL(of: invocation))) != nil else { return nil }
        return manager.moduleCommands()
    }

    private static var workingDirectory: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// The manifest the invocation names, relative paths taken from the working directory.
    static func manifestURL(of invocation: Invocation) -> URL {
        URL(fileURLWithPath: invocation.manifestPath, relativeTo: workingDirectory).standardizedFileURL
    }

    /// The startup plan, or every plan problem printed and a stop with 65.
    func plan() throws(Stop) -> StartupPlan {
        do {
            return try manager.startupPlan()
        } catch {
            let summary = "\(error.problems.count) error\(error.problems.count == 1 ? "" : "s") in the startup plan of \(manifestURL.path)"
            switch diagnosticOutput {
            case .text:
                report(error)
                console.diagnostic(summary)
            case .jsonLines:
                report(error)
                console.jsonError(summary, exitStatus: .badManifest)
            case .validationDocument:
                printVerdict(error.problems.map { DiagnosticPayload($0, file: manifestURL.path) }, plan: nil)
            }
            throw Stop(code: .badManifest)
        }
    }

    /// Prints each startup-plan problem as an error located at the manifest.
    func report(_ error: StartupPlanError) {
        for problem in error.problems {
            if diagnosticOutput != .text {
                console.json("diagnostic", DiagnosticPayload(problem, file: manifestURL.path), toError: true)
                continue
            }
            console.diagnostic("\(manifestURL.path): \(console.styled("error:", .red, forError: true)) startup plan: \(problem.message)")
        }
    }

    static func render(_ diagnostic: ManifestDiagnostic, console: Console) -> String {
        let style: Console.Style = diagnostic.severity == .error ? .red : .yellow
        return diagnostic.formatted { console.styled($0, style, forError: true) }
    }
}
