import Foundation
import TestSupport
import Testing

/// app-shell links FoundationEssentials, not the whole of Foundation: `ldd` lists no
/// libFoundation, FoundationInternationalization or ICU library. Nor libcrypt: AuthModule loads libxcrypt when it
/// first checks or makes a password hash, so a start that hashes nothing never loads it. The debug binary checked here links the same
/// libraries as the release one (the Benchmarks package measures the release binary's start and memory).
@Suite("app-shell's weight")
struct FoundationWeightTests {
    @Test func appShellLinksNeitherFoundationNorICUNorLibcrypt() async throws {
        #if os(Linux)
        let (status, text) = try ToolOutput.run("/usr/bin/ldd", [try ShellProcess.executable.path])
        #expect(status == 0, "\(text)")
        #expect(text.contains("libswiftCore"), "ldd listed the libraries: \(text)")
        let libraries = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let heavy = libraries.filter { line in
            line.hasPrefix("libFoundation.so") || line.contains("libFoundationInternationalization")
                || line.lowercased().contains("icu") || line.hasPrefix("libcrypt.so")
        }
        #expect(heavy.isEmpty, "app-shell links \(heavy)")
        #endif
    }
}
