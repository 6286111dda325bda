import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A folder of the user's that others may read (a home or project folder, a web root) keeps its mode when it is the
/// state folder: the app uses it as it is, on every path, instead of locking its other readers out.
@Suite("State folders the app did not create")
struct StateFolderModeTests {
    private static func mode(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test(arguments: [0o755, 0o750])
    func anExistingFolderKeepsItsModeOnEveryPath(mode: Int) async throws {
        let workspace = try Workspace()
        let folder = workspace.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(chmod(folder.path, mode_t(mode)) == 0)
        let runs: [(arguments: [String], input: String)] = [
            (["--state-dir", folder.path, "whoami"], ""),
            (["--state-dir", folder.path, "fact", "3"], ""),
            (["--state-dir", folder.path, "-q"], "login alice\nwonderland\nfact 5\nlogout\n"),
            (["--state-dir", folder.path, "--json", "whoami"], ""),
        ]
        for run in runs {
            let result = try await workspace.run(run.arguments, input: run.input)
            #expect(result.status == 0, "\(run.arguments): \(result.stderr)")
            #expect(Self.mode(of: folder) == mode, "\(run.arguments) changed the folder's mode")
            // Said, as HostEnvironment.stateFile promises, unless quiet: a one-shot command used to say nothing.
            let said = result.stderr.contains("is readable by other users (mode 0\(String(mode, radix: 8))); it is used as it is")
            #expect(said == !run.arguments.contains("-q"), "\(run.arguments): \(result.stderr)")
        }
        // What the app created inside it is private.
        #expect(Self.mode(of: folder.appendingPathComponent("com.modulehost.auth")) == 0o700)
    }

    /// Through the manifest's own state folder for the numbers history, at the first run, too.
    @Test func aConfiguredHistoryFolderKeepsItsMode() async throws {
        let workspace = try Workspace(manifest: #"{"modules": [{"type": "NumbersModule.NumbersModule", "config": {"stateDirectory": "web"}}]}"#)
        let folder = workspace.url.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(chmod(folder.path, 0o755) == 0)
        let result = try await workspace.run(["-q"], input: "fact 3\nhistory\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.mode(of: folder) == 0o755)
    }
}
