import Foundation
import ModuleHost

/// The configuration every manifest-benchmark module reads.
struct ManifestBenchConfig: Decodable, Sendable {
    var name: String
    var limit: Int
    var tags: [String]
}

// Four real module types. Manifests name types, so 1,000 distinct modules would need 1,000 classes; instead
// the manifest's 1,000 entries name these four, and all but the first four entries are disabled
// (a disabled entry is decoded, its type looked up and its fields checked, but it is not registered).
final class ManifestModuleA: ConfigurableModule {
    typealias Configuration = ManifestBenchConfig
    static let moduleIdentifier: ModuleIdentifier = "com.modulehost.bench.manifest.a"
    init(context: any ModuleContext) {}
}

final class ManifestModuleB: ConfigurableModule {
    typealias Configuration = ManifestBenchConfig
    static let moduleIdentifier: ModuleIdentifier = "com.modulehost.bench.manifest.b"
    init(context: any ModuleContext) {}
}

final class ManifestModuleC: ConfigurableModule {
    typealias Configuration = ManifestBenchConfig
    static let moduleIdentifier: ModuleIdentifier = "com.modulehost.bench.manifest.c"
    init(context: any ModuleContext) {}
}

final class ManifestModuleD: ConfigurableModule {
    typealias Configuration = ManifestBenchConfig
    static let moduleIdentifier: ModuleIdentifier = "com.modulehost.bench.manifest.d"
    init(context: any ModuleContext) {}
}

/// A 1,000-entry manifest: every entry has a config object and startup overrides; disabled entries also
/// carry per-operation overrides (enabled ones cannot, as these modules declare no operations).
func makeManifest(entries: Int) -> Data {
    let moduleTypes: [any ModuleProtocol.Type] = [ManifestModuleA.self, ManifestModuleB.self, ManifestModuleC.self, ManifestModuleD.self]
    let types = moduleTypes.map { String(reflecting: $0) }
    var modules: [String] = []
    modules.reserveCapacity(entries)
    for index in 0..<entries {
        let enabled = index < types.count
        let operations = enabled ? "" : #", "operations": {"op.\#(index)": {"priority": "idle", "timeout": 2.5}}"#
        modules.append("""
            {"type": "\(types[index % types.count])", "enabled": \(enabled), "eager": false, \
            "config": {"name": "entry-\(index)", "limit": \(index * 7), "tags": ["alpha", "beta", "gamma"]}, \
            "priority": "low", "timeout": 5, "failurePolicy": "optional"\(operations)}
            """)
    }
    return Data("{\"version\": 1, \"modules\": [\n\(modules.joined(separator: ",\n"))\n]}\n".utf8)
}

func manifestBenchmarks(quick: Bool) -> [Row] {
    let data = makeManifest(entries: 1_000)

    // Check the setup once: the runtime type lookup must find the four types and register exactly them.
    do {
        let manager = ModuleManager()
        try manager.registerModules(from: data)
        precondition(manager.modules.count == 4, "expected 4 registered modules, got \(manager.modules.count)")
        let errors = ModuleManager().validateManifest(data).filter { $0.severity == .error }
        precondition(errors.isEmpty, "validateManifest found errors: \(errors)")
    } catch {
        fatalError("the manifest benchmark's manifest is invalid: \(error)")
    }

    var samples: [String: [Double]] = [:]
    let cases: [(String, () -> Void)] = [
        ("baseline", { blackHole(try! JSONSerialization.jsonObject(with: data)) }),
        // Decoding and validation, as registration does them, without registering.
        ("validate", { blackHole(ModuleManager().validateManifest(data)) }),
        ("register", {
            let manager = ModuleManager()
            blackHole(try! manager.registerModules(from: data))
            blackHole(manager)
        }),
    ]
    for (_, body) in cases { for _ in 0..<3 { body() } }  // warm-up
    for _ in 0..<(quick ? 5 : 21) {
        for (name, body) in cases {
            let start = clock.now
            body()
            samples[name, default: []].append((clock.now - start).milliseconds)
        }
    }
    let stats = samples.mapValues(Stats.init)
    let baseline = stats["baseline"]!.median
    let validate = stats["validate"]!.median
    let register = stats["register"]!.median
    let baselineName = "JSONSerialization.jsonObject, same \(data.count / 1024) KiB"
    return [
        Row(benchmark: "manifest (1,000 entries)", subject: "ModuleManager().validateManifest(data)",
            baseline: baselineName, ratio: validate / baseline,
            absolute: "\(format(ms: validate)) vs \(format(ms: baseline))",
            target: "no target", verdict: .info),
        Row(benchmark: "manifest (1,000 entries)", subject: "ModuleManager().registerModules(from:)",
            baseline: baselineName, ratio: register / baseline,
            absolute: "\(format(ms: register)) vs \(format(ms: baseline))", target: "no target", verdict: .info),
    ]
}
