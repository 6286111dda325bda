#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LargeApp

/// A hand-wired twin's run: decodes the manifest with JSONDecoder, then constructs every module it lists directly
/// and calls each once through its service protocol (generated code, `callLargeModulesDirectly`). Returns the time
/// and the sum of the modules' values.
///
/// The plain twin decodes as `decodeLargeManifest` does (one entry type for every configuration); the typed twin
/// (`typed`) reads each module's configuration into the module's own type (`LargeTypedManifest`), as a hand-wired app
/// that hands its modules typed configurations does.
public func runHandWiredLargeApp(_ manifest: URL, typed: Bool = false) throws -> (Duration, Int) {
    let clock = ContinuousClock()
    let begin = clock.now
    let data = try Data(contentsOf: manifest)
    let count = typed ? try JSONDecoder().decode(LargeTypedManifest.self, from: data).configurations.count
                      : try JSONDecoder().decode(LargeManifest.self, from: data).modules.count
    let total = callLargeModulesDirectly(count: count)
    return (clock.now - begin, total)
}
