// `large-app-child <manifest> host|decode|wired|typed [runs]`: the large benchmark's first-use measurement, in a fresh process
// that holds what an app holds (ModuleHost, the 1,000 generated modules, FoundationEssentials) and nothing of the
// benchmark's (Swinject, swift-dependencies, all of Foundation), whose conformance records every first-use scan
// of the Swift runtime would walk too. `host` registers the manifest and starts the app; `decode` runs JSONDecoder
// on the same file; `wired` runs the hand-wired twin (JSONDecoder, then every module constructed and called directly,
// in generated code); `typed` runs the typed twin (the same, with each module's configuration decoded into its own
// type). Prints the milliseconds of each run: the first is first use, later ones warm (for a profiler:
// `perf record … large-app-child <manifest> host 200`).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LargeAppHarness

let arguments = Array(CommandLine.arguments.dropFirst())
guard (2...3).contains(arguments.count), ["host", "decode", "wired", "typed"].contains(arguments[1]),
      let runs = Int(arguments.count == 3 ? arguments[2] : "1"), runs > 0 else {
    print("usage: large-app-child <manifest> host|decode|wired|typed [runs]")
    exit(64)
}
let manifest = URL(fileURLWithPath: arguments[0])
do {
    for _ in 0..<runs {
        let elapsed: Duration
        switch arguments[1] {
        case "host": elapsed = try await runLargeApp(manifest)
        case "wired": elapsed = try runHandWiredLargeApp(manifest).0
        case "typed": elapsed = try runHandWiredLargeApp(manifest, typed: true).0
        default: elapsed = try decodeLargeManifest(manifest).0
        }
        let (seconds, attoseconds) = elapsed.components
        print(Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
    }
} catch {
    print("large-app-child: \(error)")
    exit(1)
}
