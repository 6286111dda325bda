#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// Facts and channels of the hosting app that modules may need, provided by the host as a service.
///
/// The shell provides it (`manager.provide(environment, as: HostEnvironment.self)`); a module resolves it
/// with `bridge.resolveIfProvided(HostEnvironment.self)` and falls back to
/// ``HostEnvironment/standard(folderName:)``, naming the folder of the host it is written for.
public struct HostEnvironment: Sendable {
    /// The host's state folder: where modules keep state between runs (sessions, histories). Each module keeps
    /// its files in a folder of its own inside it, named by its identifier (see ``stateFile(_:of:maximumSize:)``);
    /// the host may keep its own files (such as a prompt history) in it directly.
    public var stateDirectory: URL
    /// The folder of the manifest, against which relative paths in module configs are resolved.
    public var manifestDirectory: URL
    /// Where modules report what the user should know (a session not restored, a file not saved).
    public var report: @Sendable (HostNotice) -> Void

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - stateDirectory: Where modules keep state, each in a folder named by its identifier.
    ///   - manifestDirectory: The manifest's folder, against which relative paths in configs are resolved.
    ///   - report: Where modules report notices; dropped by default.
    public init(stateDirectory: URL, manifestDirectory: URL, report: @escaping @Sendable (HostNotice) -> Void = { _ in }) {
        self.stateDirectory = stateDirectory
        self.manifestDirectory = manifestDirectory
        self.report = report
    }

    /// The state file `name` of the module instance that was given `context`: the one safe way for a module to
    /// keep a file between runs. It lives in the module's own folder, `<stateDirectory>/<module identifier>/<name>`,
    /// so two modules asking for the same name get two files, and no module can name another's folder. The file
    /// belongs to that instance: once it is released, the file refuses (`StateFileError.Code.ownerReleased`). It is read only if it is a regular file of this user's, closed to other writers (a
    /// symbolic link, FIFO or device is refused without blocking), and written atomically (a 0600 temporary file,
    /// synced, renamed over it); the state folder and the module's folder are created on demand with mode 0700,
    /// and either is refused if it is a symbolic link, another user's, or shared. An existing folder's mode is never
    /// changed: one readable by others is used as it is, which is reported through ``report`` as an `info` notice of
    /// `module`.
    ///
    /// Earlier versions kept every module's files in ``stateDirectory`` itself. While the module's folder has no
    /// file of this name, `<stateDirectory>/<name>` is read instead and moved into the module's folder, so nothing
    /// is lost on upgrade (see ``StateFile/read()`` for why it is moved rather than copied).
    ///
    /// ```swift
    /// let environment = try context.bridge.resolveIfProvided(HostEnvironment.self) ?? .standard(folderName: ".my-app")
    /// let file = try environment.stateFile("notes.json", of: context)
    /// let saved = try file.read()          // nil when there is none yet
    /// try file.write(Data("[]".utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - name: The file's name: one plain file name.
    ///   - context: The context the module instance was given in `init(context:)` or `moduleDidLoad(with:)`.
    ///   - maximumSize: The largest file ``StateFile/read()`` accepts, in bytes.
    /// - Returns: The file; nothing is created until it is written.
    /// - Throws: `StateFileError.Code.invalidName` when `name` is not one plain file name (empty, `.`, `..`, or
    ///   holding a `/` or a NUL), when the module's identifier cannot name a folder inside the state folder for the
    ///   same reasons, or when `context` is not a module instance's (the manager's own, say), so that no file can be
    ///   placed outside a module's folder.
    public func stateFile(_ name: String, of context: any ModuleContext, maximumSize: Int = 1 << 20) throws(StateFileError) -> StateFile {
        guard let module = context.owningModule else {
            throw StateFileError(.invalidName, path: name, message: "the state file \(DisplayText.quoted(name, with: "\"")) was asked "
                                    + "for with a context that is not a module's; pass the context the module was given")
        }
        return try stateFile(name, of: module, owner: context, maximumSize: maximumSize)
    }

    /// The state file `name` in `module`'s folder, bound to `owner`; for the host and tests, which name the module.
    package func stateFile(_ name: String, of module: ModuleIdentifier, owner: (any ModuleContext)? = nil,
                           maximumSize: Int = 1 << 20) throws(StateFileError) -> StateFile {
        guard Self.isOneName(name) else {
            throw StateFileError(.invalidName, path: name,
                                 message: "\(DisplayText.quoted(name, with: "\"")) is not a file name for a state file; give one name without \"/\"")
        }
        let folder = try folder(of: module)
        let report = self.report
        return StateFile(url: folder.appendingPathComponent(name, isDirectory: false), maximumSize: maximumSize,
                         hostDirectory: stateDirectory, owner: owner, replace: StateFile.rename,
                         notice: { report(HostNotice(.info, module: module, $0)) })
    }

    /// `module`'s own folder in ``stateDirectory``, `<stateDirectory>/<module identifier>`, where its state files
    /// live. Throws `StateFileError.Code.invalidName` when the identifier is not one plain file name (empty, `.`,
    /// `..`, or holding a `/` or a NUL), which could name the state folder, its parent, or a folder elsewhere.
    package func folder(of module: ModuleIdentifier) throws(StateFileError) -> URL {
        guard Self.isOneName(module.rawValue) else {
            throw StateFileError(.invalidName, path: module.rawValue,
                                 message: "the module identifier \(DisplayText.quoted(module.rawValue, with: "\"")) cannot name "
                                    + "the module's folder for state files; an identifier must not be empty, \".\" or \"..\", "
                                    + "nor hold a \"/\" or a NUL")
        }
        return stateDirectory.appendingPathComponent(module.rawValue, isDirectory: true)
    }

    /// Whether `name` names one entry of a folder: not empty, `.` or `..`, and without a `/` or a NUL.
    private static func isOneName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\u{0}")
    }

    /// An environment for a module that runs without a host providing one: the state folder `folderName` and
    /// the manifest folder, both in the current working directory; notices are dropped. There is no default
    /// folder name: each host (or a module written for one host) names its own, such as app-shell's `.app-shell`.
    ///
    /// - Parameter folderName: The state folder's name, in the current working directory.
    /// - Returns: The environment.
    public static func standard(folderName: String) -> HostEnvironment {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return HostEnvironment(stateDirectory: workingDirectory.appendingPathComponent(folderName, isDirectory: true),
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
    ///
    /// - Parameters:
    ///   - severity: How much the notice matters.
    ///   - module: The module that reports it.
    ///   - message: What happened; never a secret.
    public init(_ severity: Severity, module: ModuleIdentifier, _ message: String) {
        self.severity = severity
        self.module = module
        self.message = message
    }

    /// `warning: [module] message`.
    public var description: String { "\(severity.rawValue): [\(module)] \(message)" }
}
