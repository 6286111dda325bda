#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

// The large app's two measured programs, shared by the benchmark (warm, in its own process) and `large-app-child`
// (first use, in a fresh process that loads what an app does: ModuleHost, the modules and FoundationEssentials).
// The generated module types are linked in by the programs' dependency on LargeApp or SharedConfigApp, and found by
// name through the list of them the generator writes, as the ManifestCheck build plugin writes an app's.

/// The manifest's shape, for the JSONDecoder baseline.
public struct LargeManifest: Decodable {
    public struct Entry: Decodable {
        public struct Config: Decodable {
            public let size: Int
            public let label: String
            public let enabled: Bool
        }

        public let type: String
        public let config: Config?
    }

    public let version: Int
    public let modules: [Entry]
}

/// Registers the manifest, loads the eager modules and starts: the time until start() returns (ready). The later
/// phases are drained afterwards, untimed, so the next measurement starts from a quiet process. `linked` is the list
/// of module types a ManifestCheck build generates; without it, every name is looked up in the runtime.
///
/// - Parameters:
///   - manifest: The manifest file.
///   - linked: The app's module types by name.
/// - Returns: The time from creating the manager until `start()` returned.
/// - Throws: A manifest error, or a startup failure.
public func runLargeApp(_ manifest: URL, linked: [String: any ModuleProtocol.Type] = [:]) async throws -> Duration {
    let clock = ContinuousClock()
    let begin = clock.now
    let manager = ModuleManager(typeResolver: .runtime(linked: linked))
    try manager.registerModules(withConfigFilePath: manifest)
    manager.loadEagerModules()
    try await manager.initiator.start()
    let elapsed = clock.now - begin
    manager.initiator.hostDidBecomeIdle()
    _ = await manager.initiator.waitUntilFinished()
    return elapsed
}

/// Decodes the manifest with JSONDecoder, reading the file as the host does; returns the time and the modules read.
public func decodeLargeManifest(_ manifest: URL) throws -> (Duration, Int) {
    let clock = ContinuousClock()
    let begin = clock.now
    let data = try Data(contentsOf: manifest)
    let decoded = try JSONDecoder().decode(LargeManifest.self, from: data)
    return (clock.now - begin, decoded.modules.count)
}
