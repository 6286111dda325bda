import Foundation
@testable import ModuleHost
import Testing

/// Builds small C shared libraries for the plugin tests: stamped with an ABI mark, defining or needing symbols
/// named like Swift's, with constructors that leave a trace.
enum CLibrary {
    /// The C declarations of an ABI mark carrying `digest`, `triple` and `compiler` (this host's by default): in the
    /// section the host reads first, and in the code, where a Swift module type carries the mark of its interface.
    /// (The variable must not be named like the section: GNU as then reports "symbol `modulehost_abi' is already defined".)
    static func mark(_ digest: String = ABIIdentity.digest, triple: String = ABIIdentity.triple,
                     compiler: String = ABIIdentity.compiler) -> String {
        let text = "MHABI2 \(digest) \(triple) \(compiler)"
        return "__attribute__((used, section(\"modulehost_abi\"))) static const char modulehost_abi_mark[] = \"\(text)\";\n"
            + "__attribute__((used)) static const char modulehost_code_mark[] = \"\(text)\";\n"
    }

    /// A C definition of a data symbol named `symbol` (any characters, through an assembler label).
    static func defining(_ symbol: String, as name: String = "defined_\(UUID().uuidString.prefix(8))") -> String {
        "const int \(name.replacingOccurrences(of: "-", with: "_")) __asm__(\"\(symbol)\") = 1;\n"
    }

    /// C code that needs the data symbol `symbol` from elsewhere.
    static func needing(_ symbol: String) -> String {
        let name = "needed_\(UUID().uuidString.prefix(8))"
        return "extern int \(name) __asm__(\"\(symbol)\");\nint use_\(name)(void) { return \(name); }\n"
    }

    /// A constructor that creates `file` when the library is loaded.
    static func constructor(creating file: URL) -> String {
        "#include <stdio.h>\n__attribute__((constructor)) static void plugin_loaded(void) { FILE *f = fopen(\"\(file.path)\", \"w\"); if (f) fclose(f); }\n"
    }

    /// Compiles `source` into `output` (a shared library unless `shared` is false) with mode 0755.
    static func compile(_ source: String, to output: URL, shared: Bool = true, extraArguments: [String] = []) throws {
        let file = output.deletingLastPathComponent().appendingPathComponent("source-\(UUID().uuidString).c")
        try Data(source.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        compile.arguments = (shared ? ["-shared", "-fPIC"] : []) + ["-o", output.path, file.path] + extraArguments
        try compile.run()
        compile.waitUntilExit()
        try #require(compile.terminationStatus == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: output.path)
    }
}
