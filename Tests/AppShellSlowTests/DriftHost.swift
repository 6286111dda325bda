import Foundation
import TestSupport

/// A host built from a copy of this repository with one change to ModuleHost, by plain `swift build --product
/// app-shell`: its ABI identity is whatever that build generates, and no script computes it.
///
/// One copy serves the whole test process and is rebuilt incrementally for each change; callers run `build` inside
/// ``BuildQueue`` so that builds (and the copy's state) never overlap. Each result is copied out of the copy: the
/// app-shell executable and the ModuleHost.swiftmodule a plugin compiles against.
struct DriftHost: Sendable {
    /// One edit of a source file of the host (ModuleHost's, or a module a plugin compiles against).
    struct Change: Sendable {
        let name: String
        let file: String
        let replacing: String
        let with: String

        /// A stored property in front of ModuleStartupOperation's storage: no symbol changes, the layout does.
        static let structLayout = Change(
            name: "struct-layout", file: "Sources/ModuleHost/Module/ModuleStartupOperation.swift",
            replacing: "public struct ModuleStartupOperation: Sendable {\n",
            with: "public struct ModuleStartupOperation: Sendable {\n    public var drift: (Int, Int) = (0, 0)\n")
        /// A stored property before ModuleManager.bridge: the field offsets a plugin was compiled with shift.
        static let classLayout = Change(
            name: "class-layout", file: "Sources/ModuleHost/Manager/ModuleManager.swift",
            replacing: "    /// Resolves modules and services.\n    public let bridge: ModuleBridge\n",
            with: "    public let drift: [Int] = []\n    /// Resolves modules and services.\n    public let bridge: ModuleBridge\n")
        /// A parameter (with a default) added to ModuleStartupOperation.init, which a plugin calls: its symbol changes.
        static let signature = Change(
            name: "signature", file: "Sources/ModuleHost/Module/ModuleStartupOperation.swift",
            replacing: "failurePolicy: FailurePolicy? = nil, timeout: Duration? = nil,\n",
            with: "failurePolicy: FailurePolicy? = nil, timeout: Duration? = nil, drift: Int = 0,\n")
        /// A stored property in ModuleIdentifier: a plugin built before it was added reads the type at the wrong size.
        static let identifier = Change(
            name: "identifier", file: "Sources/ModuleHost/Module/ModuleIdentifier.swift",
            replacing: "public struct ModuleIdentifier: Hashable, Sendable {\n",
            with: "public struct ModuleIdentifier: Hashable, Sendable {\n    public var drift: Int = 0\n")

        /// A requirement (with a default, so ClockModule still compiles) in front of ClockService's, in
        /// ClockInterface: ModuleHost is untouched, but a plugin that calls ClockService through the old witness
        /// table would call the wrong requirement.
        static let clockRequirement = Change(
            name: "clock-requirement", file: "Sources/ClockInterface/ClockService.swift",
            replacing: "public protocol ClockService: Sendable {\n",
            with: "extension ClockService {\n    public var drift: Int { 0 }\n}\n\npublic protocol ClockService: Sendable {\n    var drift: Int { get }\n")
        /// A comment in ModuleHostRouting: a library above ModuleHost, which must not rebuild it.
        static let routingComment = Change(
            name: "routing-comment", file: "Sources/ModuleHostRouting/ModuleRouter.swift",
            replacing: "import ModuleHost\n", with: "import ModuleHost\n// An edit in a library above ModuleHost.\n")

        static let all: [Change] = [structLayout, classLayout, signature, identifier, clockRequirement, routingComment]

        /// ClockModule no longer conforms to the ClockService it declares it provides (``attempt(_:)`` only).
        static let serviceNotProvided = Change(
            name: "service-not-provided", file: "Sources/ClockModule/ClockModule.swift",
            replacing: "public final class ClockModule: ModuleProtocol, ClockService {\n",
            with: "public final class ClockModule: ModuleProtocol {\n")
    }

    /// The copy's app-shell.
    let executable: URL
    /// A folder holding the copy's ModuleHost.swiftmodule, and those of the other modules a plugin may compile against.
    let modules: URL
    /// The ABI mark the copy's build generated.
    let mark: String

    /// The copy: what SwiftPM needs to build the package (its manifest and the targets' folders), made once.
    private static let copy = Task { () throws -> URL in
        let copy = try ProcessScratch.folder("drift-package")
        for item in ["Package.swift", "Plugins", "Sources", "Tests", "modules.json"] {
            try FileManager.default.copyItem(at: PluginToolchain.root.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        return copy
    }

    /// The unchanged host: the app-shell under test, from this repository's own build (no copy, no rebuild). Its
    /// sources are those of a copy with no change, so its mark is the one such a copy's build would generate.
    static func underTest() async throws -> DriftHost {
        let modules = try PluginToolchain.hostModules
        return DriftHost(executable: try ShellProcess.executable, modules: modules, mark: try await PluginToolchain.interfaceMark(modules))
    }

    /// Builds app-shell from the copy with `change` (and no other) applied; the unchanged host is ``underTest()``.
    static func build(_ change: Change) async throws -> DriftHost {
        let copy = try await copy.value
        try restoreChangedFiles(in: copy)
        let file = copy.appendingPathComponent(change.file)
        let text = try String(contentsOf: file, encoding: .utf8)
        guard text.contains(change.replacing) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(change.file) no longer contains the text the \(change.name) case changes"])
        }
        try Data(text.replacingOccurrences(of: change.replacing, with: change.with).utf8).write(to: file)
        let started = ContinuousClock.now
        try await PluginToolchain.step(["swift", "build", "--package-path", copy.path, "--product", "app-shell"])
        print("drift host \(change.name): built in \(ContinuousClock.now - started)")

        let output = try ProcessScratch.folder("drift-host-\(change.name)")
        let built = copy.appendingPathComponent(".build/debug")
        let modules = output.appendingPathComponent("Modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: built.appendingPathComponent("app-shell"), to: output.appendingPathComponent("app-shell"))
        // The interfaces a plugin compiles against: ModuleHost, the libraries built on it, the interface targets. The
        // machinery modules come too: ModuleHost is not built for library evolution, so its `internal import`s are
        // still loaded by a client's compiler (the plugin-evolution issue makes it resilient, which hides them).
        for library in ["ModuleHost", "ModuleHostState", "ModuleHostRouting", "AuthInterface", "NumbersInterface", "ClockInterface",
                        "ModuleHostJSON", "ModuleHostBinaryImage", "ModuleHostSystemLibraries", "ModuleHostRendering"] {
            try FileManager.default.copyItem(at: built.appendingPathComponent("Modules/\(library).swiftmodule"),
                                             to: modules.appendingPathComponent("\(library).swiftmodule"))
        }
        return DriftHost(executable: output.appendingPathComponent("app-shell"), modules: modules,
                         mark: try await PluginToolchain.interfaceMark(modules))
    }

    /// When each object file of `target` in the copy's debug build was last written, by file name.
    static func objectDates(of target: String) async throws -> [String: Date] {
        let folder = try await copy.value.appendingPathComponent(".build/debug/\(target).build")
        var dates: [String: Date] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".o") {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            dates[name] = attributes[.modificationDate] as? Date
        }
        return dates
    }

    /// Puts every file a change may edit back as the repository has it, in `copy`.
    private static func restoreChangedFiles(in copy: URL) throws {
        for file in Set((Change.all + [Change.serviceNotProvided]).map(\.file)) {
            let original = try Data(contentsOf: PluginToolchain.root.appendingPathComponent(file))
            let target = copy.appendingPathComponent(file)
            if (try? Data(contentsOf: target)) != original { try original.write(to: target) }
        }
    }

    /// Builds app-shell from the copy with `change` (and no other) applied, and puts its file back after: the build's
    /// result, whether it failed or not. Call it inside ``BuildQueue``.
    static func attempt(_ change: Change) async throws -> PluginToolchain.Result {
        try restoreChangedFiles(in: try await copy.value)
        let file = try await copy.value.appendingPathComponent(change.file)
        let original = try Data(contentsOf: file)
        defer { try? original.write(to: file) }
        let text = String(decoding: original, as: UTF8.self)
        guard text.contains(change.replacing) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(change.file) no longer contains the text the \(change.name) case changes"])
        }
        try Data(text.replacingOccurrences(of: change.replacing, with: change.with).utf8).write(to: file)
        return try await PluginToolchain.run(["swift", "build", "--package-path", try await copy.value.path, "--product", "app-shell"])
    }

    /// Builds app-shell from the copy with `manifest` as its modules.json (and the copy's sources as they are);
    /// puts the original manifest back after. Call it inside ``BuildQueue``.
    static func build(manifest: String) async throws -> PluginToolchain.Result {
        let file = try await copy.value.appendingPathComponent("modules.json")
        let original = try Data(contentsOf: file)
        defer { try? original.write(to: file) }
        try Data(manifest.utf8).write(to: file)
        return try await PluginToolchain.run(["swift", "build", "--package-path", try await copy.value.path, "--product", "app-shell"])
    }
}
