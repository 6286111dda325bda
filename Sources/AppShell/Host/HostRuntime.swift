#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// The loaded app: the manager built from the manifest (with the host environment injected, for the
/// subcommands that start modules: `HostRuntime+Starting.swift`).
struct HostRuntime: Sendable {
    let manager: ModuleManager
    /// The manifest's path, absolute, as ``AbsolutePath`` resolves it.
    let manifestPath: String
    let console: Console

    /// The manifest's file name (the last component of its path).
    var manifestFileName: String {
        manifestPath.split(separator: "/").last.map(String.init) ?? "/"
    }

    /// How manifest and plan problems are printed.
    var diagnosticOutput: DiagnosticOutput = .text
    /// The manifest's warnings (`validate --json` lists them with its verdict).
    var warnings: [ManifestDiagnostic] = []
    /// The plugin modules `validate` checked without loading them (so they are not among the manager's modules).
    var pluginModulesNotLoaded = 0

    /// Every module of the manifest: those registered, and the plugin modules checked without being loaded.
    var moduleCount: Int { manager.modules.count + pluginModulesNotLoaded }

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

    /// Under `--verbose`, says which manifest is about to be read.
    static func announceReading(_ invocation: Invocation, console: Console) {
        if invocation.verbose { console.diagnostic("reading \(manifestPath(of: invocation))") }
    }

    /// Reads and registers the manifest; prints every problem and stops with 65 (invalid) or 66 (not found).
    /// Without `loadingPlugins` (for `validate`), plugin libraries are checked by reading them and not loaded.
    /// The host environment is not provided: no module loads until ``provideHostEnvironment(_:)``.
    static func load(_ invocation: Invocation, console: Console, loadingPlugins: Bool = true) throws(Stop) -> HostRuntime {
        let manifestPath = Self.manifestPath(of: invocation)
        let manager = makeManager()
        let output = DiagnosticOutput(invocation)
        var runtime = HostRuntime(manager: manager, manifestPath: manifestPath, console: console, diagnosticOutput: output)
        do {
            if loadingPlugins {
                runtime.warnings = try manager.registerModules(atPath: manifestPath)
            } else {
                (runtime.warnings, runtime.pluginModulesNotLoaded) = try manager.registerModulesWithoutPlugins(atPath: manifestPath)
            }
            if output != .validationDocument { runtime.warnings.forEach { runtime.print($0) } }
        } catch {
            let code: ExitCode = error.diagnostics.contains { $0.code == .fileNotFound } ? .manifestNotFound : .badManifest
            if output == .validationDocument {
                runtime.printVerdict(error.diagnostics.map(DiagnosticPayload.init), plan: nil)
            } else {
                error.diagnostics.forEach { runtime.print($0) }
                runtime.summarize(error.summary, code)
            }
            throw Stop(code: code)
        }
        return runtime
    }

    /// One diagnostic, as text or as a `diagnostic` document on standard error.
    func print(_ diagnostic: ManifestDiagnostic) {
        let style: Console.Style = diagnostic.severity == .error ? .red : .yellow
        emit(diagnostic.formatted { console.styled($0, style, forError: true) }, DiagnosticPayload(diagnostic))
    }

    /// One problem: its line of text, or its `diagnostic` document on standard error.
    private func emit(_ text: @autoclosure () -> String, _ payload: @autoclosure () -> DiagnosticPayload) {
        diagnosticOutput == .text ? console.diagnostic(text()) : console.json("diagnostic", payload(), toError: true)
    }

    /// The last line of a manifest or plan that failed: the summary, or under `--json` an `error` document.
    private func summarize(_ summary: String, _ code: ExitCode) {
        diagnosticOutput == .text ? console.diagnostic(summary) : console.error(summary, exitStatus: code)
    }

    /// `validate --json`'s one document: valid or not, the counts when known, and every diagnostic.
    func printVerdict(_ diagnostics: [DiagnosticPayload], plan: StartupPlan?) {
        let all = warnings.map(DiagnosticPayload.init) + diagnostics
        console.json("validation", ValidationPayload(
            file: manifestPath, valid: !all.contains { $0.severity == "error" },
            modules: plan.map { _ in moduleCount }, startupOperations: plan?.operationCount,
            pluginModulesNotCounted: plan.map { _ in pluginModulesNotLoaded }, diagnostics: all))
    }

    /// The commands the manifest's modules declare, or `nil` when the manifest cannot be registered; prints nothing.
    static func moduleCommandsQuietly(_ invocation: Invocation) -> [(module: ModuleIdentifier, command: ModuleCommand)]? {
        let manager = makeManager()
        guard (try? manager.registerModules(atPath: manifestPath(of: invocation))) != nil else { return nil }
        return manager.moduleCommands()
    }

    /// A manager that finds modules through the list the build made from `modules.json` first.
    private static func makeManager() -> ModuleManager {
        ModuleManager(typeResolver: .runtime(linked: LinkedModuleTypes.byName), concurrency: nil,
                      reservedCommandNames: ShellCommands.reservedNames)
    }

    /// The manifest the invocation names, relative paths taken from the working directory.
    static func manifestPath(of invocation: Invocation) -> String {
        AbsolutePath.resolving(invocation.manifestPath)
    }

    /// The startup plan, or every plan problem printed and a stop with 65.
    func plan() throws(Stop) -> StartupPlan {
        do {
            return try manager.startupPlan()
        } catch {
            let summary = "\(error.problems.count) error\(error.problems.count == 1 ? "" : "s") in the startup plan of \(manifestPath)"
            if diagnosticOutput == .validationDocument {
                printVerdict(error.problems.map { DiagnosticPayload($0, file: manifestPath) }, plan: nil)
            } else {
                report(error)
                summarize(summary, .badManifest)
            }
            throw Stop(code: .badManifest)
        }
    }

    /// Prints each startup-plan problem of an `invalidPlan` error as an error located at the manifest.
    func report(_ error: InitiatorError) {
        for problem in error.problems {
            emit("\(manifestPath): \(console.styled("error:", .red, forError: true)) startup plan: \(problem.message)",
                 DiagnosticPayload(problem, file: manifestPath))
        }
    }
}
