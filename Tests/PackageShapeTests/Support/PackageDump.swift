import Foundation

/// The parts of `swift package dump-package` these tests read.
///
/// A target's dependencies are encoded as one-key objects whose value is an array starting with the name:
/// `{"byName": ["ModuleHost", null]}`, `{"target": ["AuthInterface", null]}` and
/// `{"product": ["Name", "package", null, null]}` (the trailing elements are module aliases and a condition).
struct PackageDump: Decodable, Sendable {
    let targets: [Target]

    struct Target: Decodable, Sendable {
        let name: String
        /// `regular`, `executable`, `test`, `system`, `binary`, `plugin` or `macro`.
        let type: String
        /// The target's folder relative to the package root, when the manifest gives one.
        let path: String?
        let dependencies: [Dependency]
        /// The build-tool plugins the target applies (`plugins:`), when any.
        let pluginUsages: [PluginUsage]?

        /// The names of the plugins the target applies.
        var plugins: [String] { (pluginUsages ?? []).compactMap { $0.plugin.first ?? nil } }
    }

    /// One `plugins:` entry: the plugin's name and, for a plugin of another package, that package.
    struct PluginUsage: Decodable, Sendable {
        let plugin: [String?]
    }

    struct Dependency: Decodable, Sendable, CustomStringConvertible {
        enum Kind: String, Sendable { case byName, target, product }
        let kind: Kind
        let name: String
        /// The package of a `.product` dependency.
        let package: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "a dependency is one of byName/target/product, found keys \(container.allKeys.map(\.stringValue))"))
            }
            guard let kind = Kind(rawValue: key.stringValue) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [key],
                    debugDescription: "unknown dependency kind \"\(key.stringValue)\" in dump-package output"))
            }
            var values = try container.nestedUnkeyedContainer(forKey: key)
            self.kind = kind
            name = try values.decode(String.self)
            package = kind == .product ? try values.decodeIfPresent(String.self) : nil
        }

        var description: String {
            kind == .product ? "product \(name) of package \(package ?? "?")" : name
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension PackageDump {
    /// The package these tests belong to (this file is `<root>/Tests/PackageShapeTests/Support/PackageDump.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `swift package dump-package` once per test process; every test reads the same decoded value.
    static let current = Task { try await load() }

    /// Decodes `swift package dump-package` for the package at `root`.
    ///
    /// The scratch path is a fresh temporary folder: with the default one, SwiftPM waits for the lock on
    /// `.build` that the running `swift test` holds, forever. dump-package creates nothing there.
    static func load(root: URL = root) async throws -> PackageDump {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("package-shape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (swift, prefix) = swiftCommand()
        let arguments = prefix + ["package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let result = try await Subprocess.run(swift, arguments, timeout: .seconds(120))
        guard result.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey:
                "`swift \(arguments.dropFirst(prefix.count).joined(separator: " "))` exited with \(result.status):\n\(result.stderr)"])
        }
        return try JSONDecoder().decode(PackageDump.self, from: Data(result.stdout.utf8))
    }

    /// The toolchain's `swift`: `/opt/swift/usr/bin/swift` when present, else the one on `PATH`.
    static func swiftCommand() -> (executable: URL, prefix: [String]) {
        let toolchain = "/opt/swift/usr/bin/swift"
        if FileManager.default.isExecutableFile(atPath: toolchain) { return (URL(fileURLWithPath: toolchain), []) }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["swift"])
    }
}
