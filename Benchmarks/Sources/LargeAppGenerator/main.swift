// The large app's generator, run by the LargeAppSources build-tool plugin when the benchmark builds:
//
//     large-app-generator <output folder> [--shared] [--manifests <folder>]
//
// Writes LargeModules00.swift … LargeModules09.swift (100 modules each), the hand-wired twins
// (HandWiredLargeApp.swift, see HandWiredTwin.swift) and the list of linked module types a ManifestCheck build
// would generate (LinkedLargeModules.swift) into the output folder. `--shared` writes the shared-configuration
// variant instead (SharedModules00.swift …, HandWiredSharedApp.swift, LinkedSharedModules.swift): the same modules,
// every one with the same configuration type. With `--manifests`, it also writes modules-1000.json and
// modules-300.json (the first 300 modules), or shared-1000.json and shared-300.json, into that folder (committed in
// Benchmarks/LargeApp; regenerate them by hand after changing what a configuration holds). Seeded, so every run
// writes the same files.
//
// Each module is a ConfigurableModule with a small configuration (an integer, a string, a flag), requires 0-2
// lower-numbered modules, provides a service protocol of its own, and declares three startup operations: one in
// .high (it resolves its own service, so the module loads there), one in .asyncHigh, one in .low.
import Foundation
import SeededRandom

let count = 1_000
let perFile = 100

func name(_ index: Int) -> String {
    let digits = String(index)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// The first module of each group of `perFile`: a generated file's modules, and one generated function's.
let groupStarts = Array(stride(from: 0, to: count, by: perFile))

/// The two-digit number of the group that starts at `first`, as its file and its functions are named.
func groupNumber(_ first: Int) -> Substring {
    name(first / perFile).suffix(2)
}

func moduleSource(_ index: Int, requires requirements: [Int], variant: Variant) -> String {
    let n = name(index), p = variant.prefix, id = variant.identifierPrefix
    let required = requirements.map { "\"\(id).\(name($0))\"" }.joined(separator: ", ")
    return """

        /// Generated module \(n)'s service.
        public protocol \(p)Service\(n): Sendable {
            /// A number.
            func value() -> Int
        }

        /// Generated module \(n).
        public final class \(p)Module\(n): ConfigurableModule, \(p)Service\(n) {
        \(variant.configuration)

            public static let moduleIdentifier: ModuleIdentifier = "\(id).\(n)"
            public static let requiredModules: [ModuleIdentifier] = [\(required)]
            public static let providedServices: [ProvidedService] = [.service(\(p)Service\(n).self, from: \(p)Module\(n).self) { $0 }]
            public static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
            public static let startupOperations: [ModuleStartupOperation] = [
                ModuleStartupOperation("\(id).\(n).high", priority: .high) { manager in
                    _ = try manager.bridge.resolve(\(p)Service\(n).self)
                },
                ModuleStartupOperation("\(id).\(n).async", priority: .asyncHigh) { _ in },
                ModuleStartupOperation("\(id).\(n).low", priority: .low) { _ in },
            ]

            public init() {}
            public convenience init(context: any ModuleContext) { self.init() }

            public func value() -> Int { \(index) }
        }

        """
}

func manifest(_ modules: Int, variant: Variant, generator: inout SplitMix64) -> String {
    var entries: [String] = []
    for index in 0..<modules {
        let size = 1 + generator.below(10_000)
        let enabled = generator.below(10) < 9
        entries.append(#"  {"type": "\#(variant.target).\#(variant.prefix)Module\#(name(index))", "config": {"size": \#(size), "label": "module \#(name(index))", "enabled": \#(enabled)}}"#)
    }
    return "{\"version\": 1, \"modules\": [\n" + entries.joined(separator: ",\n") + "\n]}\n"
}

/// The command line was not `<output folder> [--manifests <folder>]`.
struct UsageError: Error, CustomStringConvertible {
    var description: String { "usage: large-app-generator <output folder> [--shared] [--manifests <folder>]" }
}

func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

func main() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    let variant = arguments.contains("--shared") ? Variant.shared : .perType
    arguments.removeAll { $0 == "--shared" }
    guard let output = arguments.first else {
        throw UsageError()
    }
    var generator = SplitMix64(seed: 0x16_1000)
    let requirements = (0..<count).map { index -> [Int] in
        guard index > 0 else { return [] }
        let wanted = generator.below(3)
        return Array(Set((0..<wanted).map { _ in generator.below(index) })).sorted()
    }
    for first in groupStarts {
        var text = "// Generated by the LargeAppSources build-tool plugin (Sources/LargeAppGenerator); do not edit.\nimport ModuleHost\n"
        for index in first..<min(first + perFile, count) {
            text += moduleSource(index, requires: requirements[index], variant: variant)
        }
        try write(text, to: output + "/\(variant.prefix)Modules\(groupNumber(first)).swift")
    }
    try write(handWiredSource(variant), to: output + "/HandWired\(variant.prefix)App.swift")
    try write(linkedModulesSource(variant), to: output + "/Linked\(variant.prefix)Modules.swift")
    if variant.isShared {
        try write(sharedConfigurationSource, to: output + "/SharedModuleConfiguration.swift")
    }
    if arguments.count == 3, arguments[1] == "--manifests" {
        let folder = arguments[2]
        let all = manifest(count, variant: variant, generator: &generator)
        try write(all, to: folder + "/\(variant.manifestPrefix)-1000.json")
        let lines = all.split(separator: "\n")
        let first300 = lines[1...300].joined(separator: "\n").dropLast() // the 300th entry's trailing comma
        try write("{\"version\": 1, \"modules\": [\n" + first300 + "\n]}\n", to: folder + "/\(variant.manifestPrefix)-300.json")
    }
}

do {
    try main()
} catch {
    print("large-app-generator: \(error)")
    exit(1)
}
