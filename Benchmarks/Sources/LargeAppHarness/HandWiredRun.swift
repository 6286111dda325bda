#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LargeApp

/// The hand-wired twin's run: decodes the manifest with JSONDecoder, as `decodeLargeManifest` does, then constructs
/// every module it lists directly and calls each once through its service protocol (generated code,
/// `callLargeModulesDirectly`). Returns the time and the sum of the modules' values.
public func runHandWiredLargeApp(_ manifest: URL) throws -> (Duration, Int) {
    let clock = ContinuousClock()
    let begin = clock.now
    let data = try Data(contentsOf: manifest)
    let decoded = try JSONDecoder().decode(LargeManifest.self, from: data)
    let total = callLargeModulesDirectly(count: decoded.modules.count)
    return (clock.now - begin, total)
}

/// The typed twin's run: as ``runHandWiredLargeApp(_:)``, but JSONDecoder reads each module's configuration into the
/// module's own type (`LargeTypedManifest`), as a hand-wired app that hands its modules typed configurations does.
public func runTypedHandWiredLargeApp(_ manifest: URL) throws -> (Duration, Int) {
    let clock = ContinuousClock()
    let begin = clock.now
    let data = try Data(contentsOf: manifest)
    let decoded = try JSONDecoder().decode(LargeTypedManifest.self, from: data)
    let total = callLargeModulesDirectly(count: decoded.configurations.count)
    return (clock.now - begin, total)
}
