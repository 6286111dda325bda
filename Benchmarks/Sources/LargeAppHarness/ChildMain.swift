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
import ModuleHost

/// The first-use programs' main (`large-app-child`, `shared-app-child`):
/// `<program> <manifest> host|runtime|decode|wired|typed [runs]`. It prints the milliseconds of each run: the first is
/// first use, later ones warm (for a profiler: `perf record … large-app-child <manifest> host 200`).
///
/// `host` registers the manifest and starts the app, finding its modules through `linked` (the list a ManifestCheck
/// build generates); `runtime` does the same with every name looked up in the Swift runtime; `decode` runs
/// JSONDecoder on the same file; `wired` runs the hand-wired twin (JSONDecoder, then every module constructed and
/// called directly, in generated code, `callDirectly`); `typed` runs the typed twin (the same, with each module's
/// configuration decoded into its own type by `typedDecode`), where the app has one.
///
/// - Parameters:
///   - linked: The app's module types by name, as a ManifestCheck build lists them.
///   - callDirectly: The hand-wired twin: constructs and calls the first `count` modules; returns their values' sum.
///   - typedDecode: Decodes the manifest into each module's own configuration type; returns how many it decoded.
public func largeAppChildMain(linked: [String: any ModuleProtocol.Type], callDirectly: (Int) -> Int,
                              typedDecode: ((Data) throws -> Int)? = nil) async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let modes = ["host", "runtime", "decode", "wired"] + (typedDecode == nil ? [] : ["typed"])
    guard (2...3).contains(arguments.count), modes.contains(arguments[1]),
          let runs = Int(arguments.count == 3 ? arguments[2] : "1"), runs > 0 else {
        print("usage: \(CommandLine.arguments[0]) <manifest> \(modes.joined(separator: "|")) [runs]")
        exit(64)
    }
    let manifest = URL(fileURLWithPath: arguments[0])
    do {
        for _ in 0..<runs {
            let elapsed: Duration
            switch arguments[1] {
            case "host": elapsed = try await runLargeApp(manifest, linked: linked)
            case "runtime": elapsed = try await runLargeApp(manifest)
            case "wired": elapsed = try runHandWiredApp(manifest, callDirectly: callDirectly).0
            case "typed": elapsed = try runHandWiredApp(manifest, decode: typedDecode, callDirectly: callDirectly).0
            default: elapsed = try decodeLargeManifest(manifest).0
            }
            let (seconds, attoseconds) = elapsed.components
            print(Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
        }
    } catch {
        print("\(CommandLine.arguments[0]): \(error)")
        exit(1)
    }
}
