import Foundation
import TestSupport

/// Builds the example plugin once per test process, against the ModuleHost interface of the app-shell under test.
package actor PluginBuild {
    package static let shared = PluginBuild()
    private var built: Task<URL, any Error>?
    private var clashing: Task<URL, any Error>?
    private var blocking: Task<URL, any Error>?

    /// The built `libGreeterPlugin.so`.
    package func library() async throws -> URL {
        if let built { return try await built.value }
        let task = Task { try await Self.build(Self.root.appendingPathComponent("Examples/GreeterPlugin")) }
        built = task
        return try await task.value
    }

    /// A copy of the Greeter plugin whose commands are named `uptime` (ClockModule's) and `services` (the shell's),
    /// and whose route has the shape of NumbersModule's `/numbers/fact/:n`.
    package func clashingLibrary() async throws -> URL {
        if let clashing { return try await clashing.value }
        let task = Task {
            try await Self.buildCopy(named: "clashing-plugin") { text in
                text.replacingOccurrences(of: #"ModuleCommand("greet""#, with: #"ModuleCommand("uptime""#)
                    .replacingOccurrences(of: #"pattern: "/greeter/hello/:name""#, with: #"pattern: "/numbers/fact/:name""#)
                    .replacingOccurrences(of: "    ]\n\n    /// Creates the module.",
                                          with: #"    .command(ModuleCommand("services", summary: "clash") { _ in .text("") }),"# + "\n    ]\n\n    /// Creates the module.")
            }
        }
        clashing = task
        return try await task.value
    }

    /// A copy of the Greeter plugin whose startup operation (`.asyncHigh`, so it holds up startup) writes
    /// `greeter.warm-up: started` to standard error and then never ends, ignoring cancellation.
    package func blockingLibrary() async throws -> URL {
        if let blocking { return try await blocking.value }
        let task = Task {
            try await Self.buildCopy(named: "blocking-plugin") { text in
                text.replacingOccurrences(of: "import ModuleHost\n", with: "import Foundation\nimport ModuleHost\n")
                    .replacingOccurrences(of: #"ModuleStartupOperation("greeter.warm-up", priority: .asyncHigh) { _ in }"#, with: """
                        ModuleStartupOperation("greeter.warm-up", priority: .asyncHigh) { _ in
                                FileHandle.standardError.write(Data("greeter.warm-up: started\\n".utf8))
                                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                            }
                        """)
            }
        }
        blocking = task
        return try await task.value
    }

    /// A workspace whose manifest names one module, the Greeter's, from `library` installed at `plugins/`.
    package static func workspace(withGreeter library: URL) throws -> Workspace {
        let workspace = try Workspace(manifest: nil)
        let plugins = workspace.url.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: library, to: plugins.appendingPathComponent("libGreeterPlugin.so"))
        try workspace.write(#"{"modules": [{"type": "GreeterPlugin.GreeterModule", "library": "plugins/libGreeterPlugin.so"}]}"#,
                            to: "modules.json")
        return workspace
    }

    /// Builds a copy of the Greeter plugin whose module source `transform` rewrote.
    package static func buildCopy(named name: String, transform: (String) -> String) async throws -> URL {
        let copy = try ProcessScratch.folder(name)
        let example = root.appendingPathComponent("Examples/GreeterPlugin")
        for item in ["Package.swift", "build.sh", "Sources"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let source = copy.appendingPathComponent("Sources/GreeterPlugin/GreeterModule.swift")
        let original = try String(contentsOf: source, encoding: .utf8)
        let rewritten = transform(original)
        guard rewritten != original else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: source.path]) }
        try rewritten.write(to: source, atomically: true, encoding: .utf8)
        return try await build(copy)
    }

    private static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private static func build(_ package: URL) async throws -> URL {
        let binaries = try ShellProcess.executable.deletingLastPathComponent()
        let output = try ProcessScratch.folder("greeter-plugin")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [package.appendingPathComponent("build.sh").path, output.path]
        var environment = ProcessInfo.processInfo.environment
        environment["MODULEHOST_MODULES"] = binaries.appendingPathComponent("Modules").path
        // The repository whose Scripts build.sh uses, even when the plugin's folder is a copy elsewhere.
        environment["MODULEHOST_ROOT"] = root.path
        environment["PLUGIN_SCRATCH"] = package.appendingPathComponent(".build-\(binaries.deletingLastPathComponent().lastPathComponent)").path
        process.environment = environment
        let log = output.appendingPathExtension("log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        for await _ in exited.stream {}
        try handle.close()
        let library = output.appendingPathComponent("libGreeterPlugin.so")
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: library.path) else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the plugin did not build:\n\(text)"])
        }
        return library
    }
}
