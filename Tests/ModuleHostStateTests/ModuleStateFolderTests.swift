import Foundation
import Testing
import TestSupport
@testable import ModuleHostState
import ModuleHost

#if canImport(Glibc)
import Glibc
#endif

/// Each module keeps its state files in a folder of its own, `<state>/<module identifier>/<name>`: two modules
/// asking for the same name get two files, an identifier cannot name a folder outside the state folder, and a
/// file an earlier version kept in the state folder itself is still read by its module (and moved, not lost).
@Suite("State files: a folder per module")
struct ModuleStateFolderTests {
    private struct Host: ~Copyable {
        let directory: TemporaryDirectory
        let state: URL
        let environment: HostEnvironment
        let heard: Locked<[HostNotice]>

        init() throws {
            directory = try TemporaryDirectory()
            state = directory.url.appendingPathComponent("state", isDirectory: true)
            let heard = Locked<[HostNotice]>([])
            self.heard = heard
            environment = HostEnvironment(stateDirectory: state, manifestDirectory: directory.url) { notice in
                heard.withLock { $0.append(notice) }
            }
        }

        /// Creates the state folder (0700) and writes `text` to `name` in it, as an earlier version did (0600).
        func writeLegacy(_ text: String, to name: String) throws -> URL {
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let url = state.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            #expect(chmod(url.path, 0o600) == 0)
            return url
        }
    }

    private static func mode(of url: URL) -> mode_t? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    @Test func twoModulesAskingForTheSameNameGetTwoFiles() throws {
        let host = try Host()
        let first = try host.environment.stateFile("data.json", of: "com.example.first")
        let second = try host.environment.stateFile("data.json", of: "com.example.second")
        try first.write(Data("the first module's secret".utf8))
        #expect(try second.read() == nil, "another module read the first module's file")
        try second.write(Data("the second's".utf8))
        #expect(try first.read() == Data("the first module's secret".utf8))
        #expect(try second.read() == Data("the second's".utf8))
        #expect(first.url.path == host.state.appendingPathComponent("com.example.first/data.json").path)
        #expect(second.url.path == host.state.appendingPathComponent("com.example.second/data.json").path)
        #expect(!FileManager.default.fileExists(atPath: host.state.appendingPathComponent("data.json").path))
        // Both folders, and the state folder that holds them, are created private.
        #expect(Self.mode(of: host.state) == 0o700)
        #expect(Self.mode(of: host.state.appendingPathComponent("com.example.first")) == 0o700)
        #expect(Self.mode(of: host.state.appendingPathComponent("com.example.second")) == 0o700)
        #expect(Self.mode(of: first.url) == 0o600)
        try first.remove()
        #expect(try second.read() == Data("the second's".utf8), "removing one module's file removed the other's")
    }

    @Test func aLegacyFileIsReadByItsModuleAfterUpgradeAndMovedIntoItsFolder() throws {
        let host = try Host()
        let legacy = try host.writeLegacy("[\"kept\"]", to: "notes.json")
        let file = try host.environment.stateFile("notes.json", of: "com.example.notes")
        #expect(try file.read() == Data("[\"kept\"]".utf8))
        #expect(!FileManager.default.fileExists(atPath: legacy.path), "the old file stays where any module could read it")
        #expect(try Data(contentsOf: file.url) == Data("[\"kept\"]".utf8))
        #expect(Self.mode(of: file.url) == 0o600)
        #expect(host.heard.withLock { $0 }.contains { $0.module == "com.example.notes" && $0.message.contains("moved \(legacy.path)") })
        // Read again (from its new place) and written: nothing is lost, and the old place stays empty.
        #expect(try file.read() == Data("[\"kept\"]".utf8))
        try file.write(Data("[\"kept\", \"new\"]".utf8))
        #expect(try host.environment.stateFile("notes.json", of: "com.example.notes").read() == Data("[\"kept\", \"new\"]".utf8))
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
        // Claimed by its module: another module asking for the same name no longer finds it.
        #expect(try host.environment.stateFile("notes.json", of: "com.example.other").read() == nil)
    }

    @Test func theModulesOwnFileWinsOverALegacyOneAndRemoveDeletesBoth() throws {
        let host = try Host()
        let file = try host.environment.stateFile("notes.json", of: "com.example.notes")
        try file.write(Data("new".utf8))
        let legacy = try host.writeLegacy("stale", to: "notes.json")
        #expect(try file.read() == Data("new".utf8))
        #expect(FileManager.default.fileExists(atPath: legacy.path), "a legacy file is only moved when the module has none")
        try file.remove()
        #expect(!FileManager.default.fileExists(atPath: legacy.path), "a removed file came back from the old place")
        #expect(try file.read() == nil)
    }

    /// The old place of a file is `<state>/<name>`; when `name` is another module's identifier, that is the other
    /// module's folder, which must never be read as the file.
    @Test func theLegacyFallbackCannotReadAnotherModulesFolderOrFiles() throws {
        let host = try Host()
        let owner = try host.environment.stateFile("secret.json", of: "com.example.owner")
        try owner.write(Data("owner's secret".utf8))
        let prying = try host.environment.stateFile("com.example.owner", of: "com.example.prying")
        #expect(try prying.read() == nil)
        let byName = try host.environment.stateFile("secret.json", of: "com.example.prying")
        #expect(try byName.read() == nil)
        try prying.remove()
        try byName.remove()
        #expect(try owner.read() == Data("owner's secret".utf8))
    }

    @Test func aLegacyFileThatCannotBeTrustedIsRefusedAndLeftWhereItIs() throws {
        let host = try Host()
        let legacy = try host.writeLegacy("forged", to: "notes.json")
        #expect(chmod(legacy.path, 0o666) == 0)
        let file = try host.environment.stateFile("notes.json", of: "com.example.notes")
        let error = try #require(throws: StateFileError.self) { try file.read() }
        #expect(error.message.contains("is writable by other users (mode 0666)"), "\(error.message)")
        #expect(FileManager.default.fileExists(atPath: legacy.path))
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
    }

    @Test func aModuleFolderThatIsASymbolicLinkIsRefused() throws {
        let host = try Host()
        try FileManager.default.createDirectory(at: host.state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let elsewhere = host.directory.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(at: host.state.appendingPathComponent("com.example.notes"), withDestinationURL: elsewhere)
        let file = try host.environment.stateFile("notes.json", of: "com.example.notes")
        let readError = try #require(throws: StateFileError.self) { try file.read() }
        #expect(readError.message.contains("is a symbolic link; refusing to use it"))
        let writeError = try #require(throws: StateFileError.self) { try file.write(Data("x".utf8)) }
        #expect(writeError.code == .directoryUnavailable)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test(arguments: ["", ".", "..", "../escape", "a/b", "/tmp", "..\u{0}", "nul\u{0}"])
    func aHostileIdentifierCannotEscapeTheStateFolder(identifier: String) throws {
        let host = try Host()
        let environment = host.environment
        let error = try #require(throws: StateFileError.self) {
            try environment.stateFile("data.json", of: ModuleIdentifier(rawValue: identifier))
        }
        #expect(error.code == .invalidName)
        #expect(error.message.contains("the module identifier"), "\(error.message)")
        #expect(throws: StateFileError.self) { try environment.folder(of: ModuleIdentifier(rawValue: identifier)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: host.directory.url.path).isEmpty, "something was created")
    }

    @Test func standardNamesTheHostsFolderInTheWorkingDirectory() {
        let environment = HostEnvironment.standard(folderName: ".my-host")
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        #expect(environment.stateDirectory.path == workingDirectory.appendingPathComponent(".my-host").path)
        #expect(environment.manifestDirectory.path == workingDirectory.path)
    }
}
