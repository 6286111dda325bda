import Foundation
import Testing
import TestSupport
import ModuleHostTesting

/// The DocC article "Writing a plugin" works as written: a second plugin is built from its own snippets, with its
/// own commands, and runs in app-shell; the example plugin follows the same steps.
@Suite("Writing a plugin (article)", .enabled(if: SlowLane.isRequested, SlowLane.reason), .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"), .timeLimit(.minutes(20)))
struct PluginArticleTests {
    static let articlePath = "Sources/ModuleHost/ModuleHost.docc/WritingAPlugin.md"

    /// The fenced blocks of the article that follow a `<!-- plugin-file: PATH -->` or `<!-- plugin-step: NAME -->`
    /// marker, keyed by PATH or NAME.
    static func markedBlocks(_ kind: String, in article: String) -> [String: String] {
        var blocks: [String: String] = [:]
        var key: String?, body: [Substring]?
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if var lines = body {
                if line.hasPrefix("```") {
                    if let key { blocks[key] = lines.joined(separator: "\n") + "\n" }
                    key = nil
                    body = nil
                } else {
                    lines.append(line)
                    body = lines
                }
            } else if line.hasPrefix("<!-- \(kind): "), line.hasSuffix(" -->") {
                key = String(line.dropFirst("<!-- \(kind): ".count).dropLast(" -->".count))
            } else if key != nil, line.hasPrefix("```") {
                body = []
            }
        }
        return blocks
    }

    static func article() throws -> String {
        try String(contentsOf: PluginToolchain.root.appendingPathComponent(articlePath), encoding: .utf8)
    }

    /// The lines of a Swift manifest that are code: comments and blank lines dropped, trailing spaces trimmed.
    static func code(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            let trimmed = String(code.reversed().drop { $0 == " " }.reversed())
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    @Test func articleHasItsSnippetsAndSteps() throws {
        let article = try Self.article()
        let files = Self.markedBlocks("plugin-file", in: article)
        #expect(Set(files.keys) == ["MyPlugin/Package.swift", "MyPlugin/Sources/MyPlugin/ShoutModule.swift", "modules.json"])
        #expect(Set(Self.markedBlocks("plugin-step", in: article).keys) == ["host", "build", "install"])
        #expect(files["MyPlugin/Package.swift"]?.contains(".library(name: \"MyPlugin\", type: .dynamic") == true)
    }

    @Test func examplePluginFollowsTheArticle() throws {
        let article = try Self.article()
        let package = try #require(Self.markedBlocks("plugin-file", in: article)["MyPlugin/Package.swift"])
        let example = try String(contentsOf: PluginToolchain.root.appendingPathComponent("Examples/GreeterPlugin/Package.swift"), encoding: .utf8)
        #expect(Self.code(example) == Self.code(package.replacingOccurrences(of: "MyPlugin", with: "GreeterPlugin")),
                "Examples/GreeterPlugin/Package.swift and the article's Package.swift differ in code")
        let build = try String(contentsOf: PluginToolchain.root.appendingPathComponent("Examples/GreeterPlugin/build.sh"), encoding: .utf8)
        for step in ["--product app-shell", "--show-bin-path)/Modules", "--product GreeterPlugin", "chmod go-w", "Scripts/stamp-plugin.sh", "--interface-digest", "-DMODULEHOST_ABI_", "--interface \"$MODULEHOST_MODULES\"",
                     "-sectcreate -Xlinker __DATA -Xlinker __modulehost_abi"] {
            #expect(build.contains(step), "build.sh does not do the article's step \(step)")
        }
    }

    @Test(.enabled(if: DriftFixture.supported, "the article's install step stamps ELF libraries"))
    func pluginBuiltFromTheArticleRunsInAppShell() async throws {
        let article = try Self.article()
        let files = Self.markedBlocks("plugin-file", in: article), steps = Self.markedBlocks("plugin-step", in: article)
        let workspace = try ProcessScratch.folder("article-plugin")
        defer { try? FileManager.default.removeItem(at: workspace) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.path)
        for (path, text) in files where path != "modules.json" {
            let url = workspace.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        // The article's "host" step builds app-shell; here it is the app-shell under test, already built.
        let environment = ["HOST": PluginToolchain.root.path, "MODULEHOST_MODULES": try PluginToolchain.hostModules.path]
        let build = try #require(steps["build"]), install = try #require(steps["install"])
        let started = ContinuousClock.now
        _ = try await BuildQueue.shared.enqueue {
            try await PluginToolchain.step(["/bin/bash", "-euo", "pipefail", "-c", build], in: workspace, environment: environment)
        }
        print("article plugin: built in \(ContinuousClock.now - started)")
        let installed = try await PluginToolchain.step(["/bin/bash", "-euo", "pipefail", "-c", install], in: workspace, environment: environment)
        let sha = String(try #require(installed.stdout.split(separator: "\n").last).prefix(64))
        #expect(sha == (try await PluginToolchain.sha256(of: workspace.appendingPathComponent("plugins/libMyPlugin.so"))))
        let manifest = try #require(files["modules.json"])
        try #require(manifest.contains("<the SHA-256 printed above>"))
        try Data(manifest.replacingOccurrences(of: "<the SHA-256 printed above>", with: sha).utf8)
            .write(to: workspace.appendingPathComponent("modules.json"))

        let validated = try await ShellProcess.run(["validate"], in: workspace)
        #expect(validated.status == 0, "\(validated.all)")
        let result = try await ShellProcess.run([], input: "shout hello from the article\n", in: workspace)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains("HELLO FROM THE ARTICLE"), "\(result.all)")
    }
}
