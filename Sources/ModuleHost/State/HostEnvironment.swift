import Foundation

/// Facts about the hosting app that modules may need, provided by the host as a service.
///
/// The shell injects it (`manager.inject(environment, as: HostEnvironment.self)`); a module resolves it
/// with `bridge.resolveIfProvided(HostEnvironment.self)` and falls back to ``HostEnvironment/standard``.
public struct HostEnvironment: Sendable, Hashable {
    /// Where modules keep state between runs (sessions, histories), shared by all modules.
    public var stateDirectory: URL
    /// The folder of the manifest, against which relative paths in module configs are resolved.
    public var manifestDirectory: URL

    /// Creates an environment.
    public init(stateDirectory: URL, manifestDirectory: URL) {
        self.stateDirectory = stateDirectory
        self.manifestDirectory = manifestDirectory
    }

    /// `.app-shell/` and the manifest folder, both in the current working directory.
    public static var standard: HostEnvironment {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return HostEnvironment(stateDirectory: workingDirectory.appendingPathComponent(".app-shell", isDirectory: true),
                               manifestDirectory: workingDirectory)
    }
}
