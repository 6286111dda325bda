#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A hand-wired twin's run: decodes the manifest with JSONDecoder, then constructs every module it lists directly
/// and calls each once through its service protocol (generated code, `callDirectly`). Returns the time and the sum of
/// the modules' values.
///
/// The plain twin decodes as `decodeLargeManifest` does (one entry type for every configuration); a typed twin passes
/// `decode`, which reads each module's configuration into the module's own type (`LargeTypedManifest`), as a
/// hand-wired app that hands its modules typed configurations does.
///
/// - Parameters:
///   - manifest: The manifest file.
///   - decode: Decodes the manifest's bytes the typed twin's way; returns how many modules it lists.
///   - callDirectly: Constructs and calls the first `count` modules; returns the sum of their values.
/// - Returns: The time taken and the sum of the modules' values.
/// - Throws: What reading or decoding the manifest throws.
public func runHandWiredApp(_ manifest: URL, decode: ((Data) throws -> Int)? = nil,
                            callDirectly: (Int) -> Int) throws -> (Duration, Int) {
    let clock = ContinuousClock()
    let begin = clock.now
    let data = try Data(contentsOf: manifest)
    let count = try decode?(data) ?? JSONDecoder().decode(LargeManifest.self, from: data).modules.count
    let total = callDirectly(count)
    return (clock.now - begin, total)
}
