import Foundation
import Testing
import TestSupport
import ModuleHostTesting

/// `swift package add-module` in an app package laid out as *Getting started* lays one out (the package, its product
/// and its host target all named MyApp), and in the layouts an outside attack tried: a product's `targets: [` on a
/// line of its own, a name that is a keyword, a manifest that is not UTF-8, a link, or a folder. Each edit is read
/// back with `swift package dump-package`; a refusal writes nothing.
@Suite("add-module", .enabled(if: SlowLane.isRequested, SlowLane.reason), .serialized, .disabled(if: Sanitizers.threadSanitizerIsActive, "runs swift package; proves no concurrency property"),
       .timeLimit(.minutes(20)))
struct AddModuleCommandTests {
    static let packageText = """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
            name: "MyApp",
            platforms: [.macOS(.v15)],
            products: [
                .executable(name: "MyApp", targets: [
                    "MyApp",
                ]),
            ],
            dependencies: [.package(path: "\(PluginToolchain.root.path)")],
            targets: [
                // targets: [ in a comment, and "dependencies: [" in a string are not code
                .executableTarget(name: "MyApp", dependencies: [.product(name: "ModuleHost", package: "\(PluginToolchain.root.lastPathComponent)")]),
            ],
            swiftLanguageModes: [.v6]
        )

        """

    /// The app package, made once per test process; each case resets it (the suite is serialized).
    static let app = Task { () throws -> URL in
        let folder = try ProcessScratch.folder("add-module-app")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources/MyApp"), withIntermediateDirectories: true)
        try Data("import ModuleHost\nprint(\"app\")\n".utf8).write(to: folder.appendingPathComponent("Sources/MyApp/main.swift"))
        return folder
    }

    /// What modules.json is before a case.
    enum Manifest {
        case bytes([UInt8]), linkToConfig, folder
    }

    /// Resets the app (`package` as Package.swift, no module but MyApp, `manifest`) and runs add-module `name` in it.
    func addModule(_ name: String, _ options: [String] = [], manifest: Manifest, package: String = packageText) async throws
        -> (result: PluginToolchain.Result, app: URL) {
        let app = try await reset(manifest: manifest, package: package)
        return (try await run(name, options, in: app), app)
    }

    /// Resets the app: `package` as Package.swift, no module but MyApp, and `manifest`.
    func reset(manifest: Manifest, package: String = packageText) async throws -> URL {
        let app = try await Self.app.value
        let manager = FileManager.default
        for item in (try? manager.contentsOfDirectory(atPath: app.appendingPathComponent("Sources").path)) ?? [] where item != "MyApp" {
            try manager.removeItem(at: app.appendingPathComponent("Sources/\(item)"))
        }
        for item in ["Tests", "config", "modules.json", "Package.swift"] { try? manager.removeItem(at: app.appendingPathComponent(item)) }
        try Data(package.utf8).write(to: app.appendingPathComponent("Package.swift"))
        let file = app.appendingPathComponent("modules.json")
        switch manifest {
        case .bytes(let bytes): try Data(bytes).write(to: file)
        case .folder: try manager.createDirectory(at: file, withIntermediateDirectories: true)
        case .linkToConfig:
            try manager.createDirectory(at: app.appendingPathComponent("config"), withIntermediateDirectories: true)
            try Data(#"{"modules": []}"#.utf8).write(to: app.appendingPathComponent("config/modules.json"))
            try manager.createSymbolicLink(atPath: file.path, withDestinationPath: "config/modules.json")
        }
        return app
    }

    /// Runs add-module `name` with `options` in `app` as it is.
    func run(_ name: String, _ options: [String] = [], in app: URL) async throws -> PluginToolchain.Result {
        try await BuildQueue.shared.enqueue {
            try await PluginToolchain.run(["swift", "package", "--package-path", app.path, "--allow-writing-to-package-directory", "add-module", name]
                                          + options, timeout: .seconds(600))
        }
    }

    /// The targets `swift package dump-package` reads, with their dependencies' names.
    func targets(of app: URL) async throws -> [String: [String]] {
        let dump = try await PluginToolchain.run(["swift", "package", "--package-path", app.path, "dump-package"])
        try #require(dump.status == 0, "Package.swift no longer reads:\n\(dump.all.suffix(2_000))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var found: [String: [String]] = [:]
        for target in object["targets"] as? [[String: Any]] ?? [] {
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                ((dependency["byName"] ?? dependency["product"] ?? dependency["target"]) as? [Any])?.first as? String
            }
            found[target["name"] as? String ?? ""] = dependencies
        }
        return found
    }

    @Test func theHostNamedLikeThePackageGetsTheDependencyAKeywordIsBacktickedAndTheManifestKeepsItsBytes() async throws {
        // "Café" in Latin-1: not UTF-8; the file is kept byte for byte, the entry added at the end of "modules".
        let original = Array(#"{"modules": [{"type": "X.Y", "config": {"n": "Caf"#.utf8) + [0xE9] + Array(#""}}]}"#.utf8)
        let (result, app) = try await addModule("Class", manifest: .bytes(original))
        #expect(result.status == 0, "\(result.all.suffix(2_000))")
        let targets = try await targets(of: app)
        #expect(targets["MyApp"]?.contains("ClassModule") == true, "\(targets)")
        #expect(Set(targets.keys).isSuperset(of: ["ClassInterface", "ClassModule", "ClassModuleTests"]), "\(targets.keys)")
        // The new targets come last, after the package's own (and the comment that opens its list).
        let package = try String(contentsOf: app.appendingPathComponent("Package.swift"), encoding: .utf8)
        let host = try #require(package.range(of: #".executableTarget(name: "MyApp""#))
        let added = try #require(package.range(of: #".target(name: "ClassInterface""#), "\(package)")
        #expect(host.lowerBound < added.lowerBound, "\(package)")
        let manifest = Array(try Data(contentsOf: app.appendingPathComponent("modules.json")))
        #expect(manifest.starts(with: original.dropLast(2)) && manifest.contains(0xE9), "the manifest lost its bytes")
        #expect(String(decoding: manifest, as: UTF8.self).contains(#"{"type": "ClassModule.ClassModule"}"#))
        let parse = try await PluginToolchain.run(["swiftc", "-parse", app.appendingPathComponent("Sources/ClassInterface/ClassService.swift").path,
                                                   app.appendingPathComponent("Sources/ClassModule/ClassModule.swift").path])
        #expect(parse.status == 0, "a keyword name gives code that does not parse:\n\(parse.all)")
    }

    @Test func aLinkedManifestIsWrittenThroughTheLink() async throws {
        let (result, app) = try await addModule("Delta", manifest: .linkToConfig)
        #expect(result.status == 0, "\(result.all.suffix(2_000))")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: app.appendingPathComponent("modules.json").path)
        #expect(link == "config/modules.json", "the link was replaced by a file")
        #expect(try String(contentsOf: app.appendingPathComponent("config/modules.json"), encoding: .utf8).contains("DeltaModule.DeltaModule"))
    }

    @Test func aManifestThatIsAFolderIsRefusedAndNothingIsWritten() async throws {
        let (result, app) = try await addModule("Gamma", manifest: .folder)
        #expect(result.status != 0 && result.all.contains("cannot be read as a file; nothing was written"), "\(result.all.suffix(2_000))")
        #expect(!FileManager.default.fileExists(atPath: app.appendingPathComponent("Sources/GammaModule").path))
        #expect(try String(contentsOf: app.appendingPathComponent("Package.swift"), encoding: .utf8) == Self.packageText)
    }
}
