import Foundation
import ModuleHost
import Testing
import TestSupport

/// What the plugin suites share: a workspace with the built Greeter plugin and a manifest naming it, the manifest
/// entry for it, and C libraries compiled into the workspace, stamped with this host's ABI mark or not.
protocol PluginSuite {}

extension PluginSuite {
    /// A workspace with the built plugin copied to `plugins/` and a manifest naming it.
    func workspace(entry: (String) -> String) async throws -> Workspace {
        let library = try await PluginBuild.shared.library()
        let workspace = try Workspace(manifest: nil)
        let plugins = workspace.url.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: library, to: plugins.appendingPathComponent("libGreeterPlugin.so"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: plugins.appendingPathComponent("libGreeterPlugin.so").path)
        let sha = try Self.sha256(of: plugins.appendingPathComponent("libGreeterPlugin.so"))
        try workspace.write(#"{"modules": ["ClockModule.ClockModule", \#(entry(sha))]}"#, to: "modules.json")
        return workspace
    }

    static func sha256(of url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    /// C definitions of the symbols that make `GreeterPlugin.GreeterModule` a module type of the file: its nominal type
    /// descriptor, and its conformance descriptor to ModuleProtocol.
    static var greeterModuleSymbols: String {
        #"const int t __asm__("$s13GreeterPlugin0A6ModuleCMn") = 1;"# + "\n"
            + #"const int c __asm__("$s13GreeterPlugin0A6ModuleC0C4Host0C8ProtocolAAMc") = 1;"# + "\n"
    }

    /// The C declaration of an ABI mark carrying the source digest `identity` (the host's by default) and this
    /// host's target and compiler (ABIIdentity is generated into the build of the ModuleHost under test).
    static func mark(_ identity: String? = nil) throws -> String {
        let text = "MHABI2 \(identity ?? ABIIdentity.digest) \(ABIIdentity.triple) \(ABIIdentity.compiler)"
        // The section the host reads first, and the same mark in the code, where a Swift module type carries it.
        return "__attribute__((used, section(\"modulehost_abi\"))) static const char modulehost_abi_mark[] = \"\(text)\";\n"
            + "__attribute__((used)) static const char modulehost_code_mark[] = \"\(text)\";\n"
    }

    /// Compiles C `source` into the shared library `library` inside the workspace, stamped with the host's mark
    /// unless `marked` is false.
    static func compileC(_ source: String, to library: String, in workspace: Workspace, marked: Bool = true,
                         arguments: [String] = []) throws {
        let file = try workspace.write((marked ? try mark() : "") + source, to: "source-\(UUID().uuidString).c")
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        compile.arguments = ["-shared", "-fPIC"] + arguments + ["-o", workspace.url.appendingPathComponent(library).path, file.path]
        try compile.run()
        compile.waitUntilExit()
        try #require(compile.terminationStatus == 0)
    }

    static func greeter(library: String = "plugins/libGreeterPlugin.so", sha256: String? = nil,
                        type: String = "GreeterPlugin.GreeterModule", optional: Bool = false) -> String {
        var fields = [#""type": "\#(type)""#, #""library": "\#(library)""#]
        if let sha256 { fields.append(#""sha256": "\#(sha256)""#) }
        if optional { fields.append(#""optional": true"#) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A C plugin defining the Greeter's type name, whose constructor creates `constructor-ran` in the workspace.
    static func tracingPlugin(in workspace: Workspace, mark: String? = nil) throws -> URL {
        let trace = workspace.url.appendingPathComponent("constructor-ran")
        let source = try (mark ?? Self.mark()) + Self.greeterModuleSymbols + "#include <stdio.h>\n"
            + "__attribute__((constructor)) static void loaded(void) { FILE *f = fopen(\"\(trace.path)\", \"w\"); if (f) fclose(f); }\n"
        try Self.compileC(source, to: "plugins/libtrace.so", in: workspace, marked: false)
        return trace
    }

    /// Runs `app-shell validate` in `workspace` as user `uid` (through setpriv), without blocking a thread of the
    /// cooperative pool; returns its status and stderr.
    static func validate(as uid: uid_t, in workspace: Workspace) async throws -> (status: Int32, stderr: String) {
        let result = try await ShellProcess.run(["validate"], in: workspace.url, as: (uid, uid))
        return (result.status, result.stderr)
    }
}
