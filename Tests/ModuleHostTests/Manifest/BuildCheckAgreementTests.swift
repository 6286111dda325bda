import Foundation
@testable import ModuleHost
import ModuleHostTesting
import Testing

/// The build check (ManifestCheckTool, run by the ManifestCheck plugin) and the run read one manifest one way: over
/// a corpus of malformed and odd manifests, the tool writes an `#error` exactly when the run's reader finds the JSON
/// malformed, at the same line, and never crashes. They once disagreed on invalid escapes, bad surrogate pairs and
/// repeated keys, and the tool trapped on a high surrogate followed by another `\u` escape.
@Suite("Build check and run agree")
struct BuildCheckAgreementTests {
    /// Each manifest of the corpus, as bytes.
    static let corpus: [(name: String, bytes: [UInt8])] = [
        ("valid", Array(#"{"modules": ["A.B"]}"#.utf8)),
        ("invalid escape", Array(#"{"modules": ["A\qB"]}"#.utf8)),
        ("high surrogate then escape", Array(#"{"modules": [{"type": "A.B", "config": {"n": "\uD800\u0041"}}]}"#.utf8)),
        ("lone low surrogate", Array(#"{"modules": ["\uDC00"]}"#.utf8)),
        ("repeated type key", Array(#"{"modules": [{"type": "A.B", "type": "C.D"}]}"#.utf8)),
        ("repeated modules key", Array(#"{"modules": ["A.B"], "modules": ["C.D"]}"#.utf8)),
        ("null library", Array(#"{"modules": [{"type": "A.B", "library": null}]}"#.utf8)),
        ("trailing comma", Array(#"{"modules": ["A.B",]}"#.utf8)),
        ("a word that is not true", Array("{\"modules\": [{\"type\": \"A.B\",\n \"eager\": tru}]}".utf8)),
        ("byte order mark", [0xEF, 0xBB, 0xBF] + Array(#"{"modules": ["A.B"]}"#.utf8)),
        ("NUL byte", Array(#"{"modules": [""#.utf8) + [0] + Array(#""]}"#.utf8)),
        ("not UTF-8", Array(#"{"modules": [""#.utf8) + [0xFF, 0xFE] + Array(#""]}"#.utf8)),
        ("unterminated string", Array(#"{"modules": ["A.B}"#.utf8)),
        ("deep nesting", Array(String(repeating: "[", count: 10_000).utf8)),
        ("huge number", Array(#"{"version": 1e999999, "modules": []}"#.utf8)),
        ("control character in a string", Array("{\"modules\": [\"A\u{1}B\"]}".utf8)),
        ("line separator in a key", Array("{\"modules\": [{\"ty\u{2028}pe\": \"A.B\"}]}".utf8)),
        ("empty", []),
        ("only whitespace", Array(" \n\t ".utf8)),
    ]

    /// The build tool, which the build puts beside the test bundle.
    static var tool: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("ManifestCheckTool-tool")
    }

    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "runs the build tool; proves no concurrency property"),
          arguments: corpus.map(\.name))
    func theToolWritesAnErrorExactlyWhenTheRunFindsTheJSONMalformed(name: String) throws {
        let bytes = try #require(Self.corpus.first { $0.name == name }?.bytes)
        try #require(FileManager.default.isExecutableFile(atPath: Self.tool.path), "no build tool at \(Self.tool.path)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("build-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("modules.json"), output = folder.appendingPathComponent("LinkedModuleTypes.swift")
        try Data(bytes).write(to: manifest)
        let process = Process()
        process.executableURL = Self.tool
        process.arguments = [output.path, manifest.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "the tool ended with \(process.terminationStatus)")
        let generated = try String(contentsOf: output, encoding: .utf8)
        let run = ManifestReader.read(bytes: bytes, file: manifest.path).diagnostics
        // What the run refuses before it reads any field: malformed JSON, or no JSON at all.
        let malformed = run.first { $0.code == .malformedJSON || $0.code == .emptyFile }
        #expect(generated.contains("#error(") == (malformed != nil), "the build says \(generated.contains("#error(")), the run says \(run)")
        if let malformed, let line = malformed.line {
            #expect(generated.contains("#sourceLocation(file: \"\(manifest.path)\", line: \(line))"), "\(generated)")
        }
    }
}
