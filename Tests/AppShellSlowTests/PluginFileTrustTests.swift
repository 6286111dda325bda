import Foundation
import ModuleHost
import Testing
import TestSupport

/// A plugin library the host does not trust is refused before it is loaded: a checksum that does not match, a path
/// or link out of the manifest's folder, a file others can write or that is no library, a FIFO, folders others own.
@Suite("Plugins: files the host refuses", .enabled(if: SlowLane.isRequested, SlowLane.reason), .timeLimit(.minutes(20)))
struct PluginFileTrustTests: PluginSuite {
    @Test func checksumMismatchRefusesTheLoad() async throws {
        let workspace = try await workspace { _ in Self.greeter(sha256: String(repeating: "0", count: 64)) }
        for arguments in [["validate"], []] {
            let result = try await workspace.run(arguments, input: "greet Ada\n")
            #expect(result.status == 65)
            #expect(result.stderr.contains("modules[1].library: the SHA-256 of"))
            #expect(result.stderr.contains("the library was not loaded"))
            #expect(!result.stdout.contains("Hello"), "nothing ran")
        }
    }

    @Test func pathThatEscapesTheManifestFolderIsRefused() async throws {
        // A real library, reachable from the manifest's folder only through "..".
        let elsewhere = try Workspace(manifest: nil)
        let library = try await PluginBuild.shared.library()
        try FileManager.default.copyItem(at: library, to: elsewhere.url.appendingPathComponent("libGreeterPlugin.so"))
        let workspace = try await workspace { _ in Self.greeter(library: "../\(elsewhere.url.lastPathComponent)/libGreeterPlugin.so") }
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("modules[1].library"))
        #expect(result.stderr.contains(#"through "..""#))
        #expect(result.stderr.contains("outside the manifest's folder"))
    }

    @Test func symbolicLinkThatEscapesIsRefused() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/link.so") }
        let elsewhere = try Workspace(manifest: nil)
        let target = elsewhere.url.appendingPathComponent("libGreeterPlugin.so")
        try FileManager.default.copyItem(at: workspace.url.appendingPathComponent("plugins/libGreeterPlugin.so"), to: target)
        try FileManager.default.createSymbolicLink(at: workspace.url.appendingPathComponent("plugins/link.so"), withDestinationURL: target)
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("through a symbolic link"))
        #expect(result.stderr.contains("outside the manifest's folder"))
        withExtendedLifetime(elsewhere) {}
    }

    @Test func libraryWritableByOthersIsRefused() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0) }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: workspace.url.appendingPathComponent("plugins/libGreeterPlugin.so").path)
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("can be written by group or others (mode 666)"))
    }

    @Test func missingLibraryIsRefused() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libNope.so") }
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("no plugin library at"))
    }

    @Test func wrongArchitectureIsRefused() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/lib32.so") }
        // An ELF header for a 32-bit object: the loader refuses it by its class.
        var header = [UInt8](repeating: 0, count: 64)
        header[0...6] = [0x7F, 0x45, 0x4C, 0x46, 1, 1, 1]
        header[16] = 3  // ET_DYN
        header[18] = 3  // EM_386
        try Data(header).write(to: workspace.url.appendingPathComponent("plugins/lib32.so"))
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("a library for another architecture"))
    }

    @Test func fileThatIsNotALibraryIsRefused() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/notes.txt") }
        try workspace.write("just text", to: "plugins/notes.txt")
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("is not a shared library"))
    }

    @Test func aFIFOIsRefusedWithoutBlocking() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libfifo.so") }
        let fifo = workspace.url.appendingPathComponent("plugins/libfifo.so").path
        try #require(mkfifo(fifo, 0o644) == 0)
        // Should app-shell block in open() (the old behaviour, deaf to SIGTERM), a writer appears after 45 s (within
        // the runs' 60 s watchdog) to let it go: the runs then needed the writer, and that is the failure, not a clock.
        let writerOpened = Locked(false)
        let unblock = Task.detached {
            try await Task.sleep(for: .seconds(45))
            writerOpened.withLock { $0 = true }
            let writer = open(fifo, O_RDWR | O_NONBLOCK)
            try await Task.sleep(for: .seconds(2))
            close(writer)
        }
        defer { unblock.cancel() }
        for arguments in [["validate"], []] {
            let result = try await workspace.run(arguments)
            #expect(result.status == 65)
            #expect(result.stderr.contains("is not a regular file (a FIFO)"), "\(result.stderr)")
        }
        #expect(!writerOpened.withLock { $0 }, "app-shell blocked opening the FIFO until a writer came")
    }

    @Test func groupWritableFoldersAreRefused() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0) }
        for folder in [workspace.url.appendingPathComponent("plugins"), workspace.url] {
            try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: folder.path)
            let result = try await workspace.run(["validate"])
            #expect(result.status == 65)
            #expect(result.stderr.contains("the folder \(folder.path), which holds the plugin"), "\(result.stderr)")
            #expect(result.stderr.contains("can be written by group or others (mode 775); run chmod go-w on it"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
    }

    /// Another user's view: folders and a library owned by root pass, the user's own pass, a third user's are refused.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
    func foldersOwnedByAThirdUserAreRefusedForAnyUser() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0) }
        let plugins = workspace.url.appendingPathComponent("plugins").path
        #expect(try await Self.validate(as: 4242, in: workspace).status == 0, "root's folders and file are trusted")
        try #require(chown(plugins, 4242, 4242) == 0)
        #expect(try await Self.validate(as: 4242, in: workspace).status == 0, "the user's own folder is trusted")
        try #require(chown(plugins, 4243, 4243) == 0)
        let refused = try await Self.validate(as: 4242, in: workspace)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("the folder \(plugins), which holds the plugin"), "\(refused.stderr)")
        #expect(refused.stderr.contains("is owned by another user (uid 4243)"))
        try #require(chown(plugins, 0, 0) == 0)
    }
}
