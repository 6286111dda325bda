import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// app-shell's signal handlers never enter the Swift runtime, read from the code the compiler wrote for them.
///
/// A handler can interrupt its thread anywhere, the runtime's own locks included. Signals' handler used to ask the
/// runtime for a tuple's type metadata (a debug build does that under a lock), and a signal that came while its thread
/// held that lock deadlocked the shell: a SIGTERM was lost in CI. So each handler, and each helper of ours it calls,
/// may call C functions and our own constants' accessors, and nothing of the runtime but `swift_once` (a constant
/// made before the handler is installed is read without a lock).
@Suite("Signal handlers' code")
struct SignalHandlerCodeTests {
    static let tools = ["/usr/bin/nm", "/usr/bin/objdump"]
    static let available = tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    static let required = ProcessInfo.processInfo.environment["MODULEHOST_REQUIRE_TOOLS"] == "1"

    /// The handlers' closures: Signals' and FaultSignals'.
    static let handlers = ["$s8AppShell7SignalsO7forward", "$s8AppShell12FaultSignalsO16restoreAndHandOn"]

    @Test(.enabled(if: available || required, "nm and objdump (binutils) are not installed"),
          .disabled(if: Sanitizers.threadSanitizerIsActive, "reads the plain build's code; the sanitizer adds calls of its own"))
    func theSignalHandlersNeverEnterTheSwiftRuntime() throws {
        #if os(Linux)
        try #require(Self.available, "nm and objdump are required (MODULEHOST_REQUIRE_TOOLS=1) but not installed")
        let binary = try ShellProcess.executable.path
        let symbols = try ToolOutput.run(Self.tools[0], [binary]).stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        for handler in Self.handlers {
            let closure = try #require(symbols.first { $0.hasPrefix(handler) && $0.hasSuffix("fU_") }, "no closure \(handler)…fU_ in app-shell")
            let calls = try Self.calls(of: closure, in: binary)
            #expect(calls.contains("write@plt") || calls.contains("tcsetattr@plt"), "\(closure) calls \(calls)")
            #expect(calls.filter(Self.entersTheRuntime).isEmpty, "\(handler) calls the Swift runtime: \(calls)")
            for helper in Set(calls) where helper.hasPrefix("$s8AppShell") {
                let inner = try Self.calls(of: helper, in: binary).filter { Self.entersTheRuntime($0) && $0 != "swift_once@plt" }
                #expect(inner.isEmpty, "\(handler) calls \(helper), which calls the Swift runtime: \(inner)")
            }
        }
        #endif
    }

    /// A call into the Swift runtime: its entry points (`swift_…`, `__swift_…`) or an unspecialized generic of the
    /// standard library (`$s…` outside this module and the C library's overlay).
    static func entersTheRuntime(_ target: String) -> Bool {
        target.contains("swift_") || (target.hasPrefix("$s") && !target.hasPrefix("$s8AppShell") && !target.hasPrefix("$s5Glibc"))
    }

    /// The functions `symbol`'s code calls or jumps to (tail calls included; jumps within itself left out), on
    /// x86-64 (`call`, `jmp`) and arm64 (`bl`, `b`).
    static func calls(of symbol: String, in binary: String) throws -> [String] {
        let code = try ToolOutput.run(tools[1], ["-d", "--no-show-raw-insn", "--disassemble=\(symbol)", binary]).stdout
        return code.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard fields.count >= 2, let mnemonic = fields[1].split(separator: " ").first,
                  ["call", "jmp", "bl", "b"].contains(mnemonic),
                  let open = line.firstIndex(of: "<"), let close = line.lastIndex(of: ">") else { return nil }
            let target = String(line[line.index(after: open)..<close])
            return target.contains("+0x") ? nil : target
        }
    }
}
