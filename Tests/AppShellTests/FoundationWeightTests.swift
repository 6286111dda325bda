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
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [try ShellProcess.executable.path]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0, "\(text)")
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
