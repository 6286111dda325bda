#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// Facts and channels of the hosting app that modules may need, provided by the host as a service.
///
/// The shell injects it (`manager.inject(environment, as: HostEnvironment.self)`); a module resolves it
/// with `bridge.resolveIfProvided(HostEnvironment.self)` and falls back to ``HostEnvironment/standard``.
public struct HostEnvironment: Sendable {
    /// Where modules keep state between runs (sessions, histories), shared by all modules.
    public var stateDirectory: URL
    /// The folder of the manifest, against which relative paths in module configs are resolved.
    public var manifestDirectory: URL
    /// Where modules report what the user should know (a session not restored, a file not saved).
    public var report: @Sendable (HostNotice) -> Void

    /// Creates an environment.
    public init(stateDirectory: URL, manifestDirectory: URL, report: @escaping @Sendable (HostNotice) -> Void = { _ in }) {
        self.stateDirectory = stateDirectory
        self.manifestDirectory = manifestDirectory
        self.report = report
    }

    /// The state file `name` of `module` in ``stateDirectory``: the one safe way for a module to keep a file
    /// between runs. It is read only if it is a regular file of this user's, closed to other writers (a symbolic
    /// link, FIFO or device is refused without blocking), and written atomically (a 0600 temporary file, synced,
    /// renamed over it) in a 0700 folder; a shared folder is refused. A repair of the folder's mode is reported
    /// through ``report`` as an `info` notice of `module`.
    ///
    /// ```swift
    /// let environment = try context.bridge.resolveIfProvided(HostEnvironment.self) ?? .standard
    /// let file = try environment.stateFile("notes.json", of: Self.moduleIdentifier)
    /// let saved = try file.read()          // nil when there is none yet
    /// try file.write(Data("[]".utf8))
    /// ```
    ///
    /// Throws ``StateFileError/Code/invalidName`` when `name` is not one plain file name (empty, `.`, `..`, or
    /// holding a `/` or a NUL), so a file cannot be placed outside the folder.
    public func stateFile(_ name: String, of module: ModuleIdentifier, maximumSize: Int = 1 << 20) throws(StateFileError) -> StateFile {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\u{0}") else {
            throw StateFileError(.invalidName, path: name,
                                 message: "\(DisplayText.quoted(name, with: "\"")) is not a file name for a state file; give one name without \"/\"")
        }
        let report = self.report
        return StateFile(url: stateDirectory.appendingPathComponent(name, isDirectory: false), maximumSize: maximumSize,
                         replace: StateFile.rename, notice: { report(HostNotice(.info, module: module, $0)) })
    }

    /// `.app-shell/` and the manifest folder, both in the current working directory; notices are dropped.
    public static var standard: HostEnvironment {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return HostEnvironment(stateDirectory: workingDirectory.appendingPathComponent(".app-shell", isDirectory: true),
                               manifestDirectory: workingDirectory)
    }
}

/// Something a module tells the user through the host, such as why a stored session was not restored.
public struct HostNotice: Sendable, Hashable, CustomStringConvertible {
    /// How much the notice matters.
    public enum Severity: String, Sendable, Hashable {
        /// For information.
        case info
        /// Something did not work, and the module carried on without it.
        case warning
    }

    /// How much the notice matters.
    public let severity: Severity
    /// The module that reports it.
    public let module: ModuleIdentifier
    /// What happened; never contains secrets.
    public let message: String

    /// Creates a notice.
    public init(_ severity: Severity, module: ModuleIdentifier, _ message: String) {
        self.severity = severity
        self.module = module
        self.message = message
    }

    /// `warning: [module] message`.
    public var description: String { "\(severity.rawValue): [\(module)] \(message)" }
}
