import Foundation
import Testing

@testable import AppShell
import TestSupport

/// ``AbsolutePath`` resolves a command line's path on its bytes exactly as the shell did with `URL`
/// (`URL(fileURLWithPath:relativeTo:).standardizedFileURL.path`), which it no longer builds on the way to a listing.
@Suite("AbsolutePath")
struct AbsolutePathTests {
    private static let samples = [
        "modules.json", "./modules.json", "../x.json", "a/../b.json", "/abs/x.json", "/abs/../x.json", "/../x", "a//b.json",
        "a/./b/", "dir/", "a%20b", "a b", "ä.json", "e\u{301}.json", "a/\u{301}b", ".", "..", "", "/", "//", "x/..",
        "x/../..", "../../../../../../../../x", "a?b#c", "//x", "///x/y", "a/.../b", "a/..b", "..a/b", "a/b/..", "a/b/../",
        "%", "a;b", "file:x", "~", "~/x", "~root/x", "~nosuchuser/x", "a/~", "./~", ".~/x", "\u{FEFF}x",
        // A path given absolute loses its empty segments before its dots; one taken from the working directory after.
        "/a//../b", "a//../b", "a///../b", "a/b//../../c", "/tmp//./..//x", "bc/////./..//", "///..//x", "//x/..",
    ]

    /// The way the shell resolved a path before.
    private static func viaURL(_ path: String) -> String {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL.path
    }

    @Test(arguments: samples)
    func resolvesAsURLDoes(path: String) {
        #expect(AbsolutePath.resolving(path) == Self.viaURL(path), "\(path.debugDescription)")
    }

    @Test func resolvesRandomPathsAsURLDoes() {
        // Seeded, so a failure can be replayed: paths of the pieces that matter to resolution.
        var generator = SplitMix64(seed: 16)
        let pieces = ["a", "bc", ".", "..", "...", "", "/", "//", "é", "\u{301}", " ", "%2F", "x.json", "~"]
        for _ in 0..<2_000 {
            let path = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined(separator: Bool.random(using: &generator) ? "/" : "")
            #expect(AbsolutePath.resolving(path) == Self.viaURL(path), "\(path.debugDescription)")
        }
    }

    @Test func theWorkingDirectoryIsTheOneFoundationReports() {
        #expect(AbsolutePath.workingDirectory() == FileManager.default.currentDirectoryPath)
    }
}
