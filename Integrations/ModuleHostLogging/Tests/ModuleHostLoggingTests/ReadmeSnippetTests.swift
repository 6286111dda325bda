import Foundation
import Testing

/// The README's Swift is this package's API as it is: its ```swift blocks (a `// Package.swift` excerpt aside), read
/// as one program, type-check against the modules this test run built, as top-level code (a `main.swift`).
@Suite("README snippets")
struct ReadmeSnippetTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The README's ```swift blocks, in order.
    static func swiftBlocks(in text: String) -> [String] {
        var blocks: [String] = [], current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append((current ?? []).joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func theReadmesSwiftTypeChecks() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: readme).filter { !$0.hasPrefix("// Package.swift") }
        try #require(!blocks.isEmpty, "the README has no Swift block")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let swiftc = try #require(path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "swiftc is not on PATH")
        // The test binary sits beside the build's Modules folder.
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let build = binary.deletingLastPathComponent()
        var arguments = ["-typecheck", "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path]
        // C targets of the dependencies (their module maps) are found as the build finds them.
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        for target in targets where target.hasSuffix(".build") {
            let map = build.appendingPathComponent(target).appendingPathComponent("module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try Data(blocks.joined(separator: "\n").utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = arguments + [file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "README.md's Swift does not compile:\n\(String(decoding: printed, as: UTF8.self))")
    }
}
