import Foundation
import Testing
import TestSupport

/// The test suites' shared scratch folders do not pile up: a test process removes the folders that processes which
/// ended without exiting normally (killed, crashed) left behind, and never those of a live process.
@Suite("Process scratch folders")
struct ProcessScratchTests {
    @Test func foldersOfEndedProcessesAreRemovedAndLiveOnesKept() throws {
        let temporary = try TemporaryDirectory()
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/sh")
        ended.arguments = ["-c", "exit 0"]
        try ended.run()
        ended.waitUntilExit()
        let names = ["\(ProcessScratch.prefix)\(ended.processIdentifier)-A", "\(ProcessScratch.prefix)\(getpid())-B",
                     "\(ProcessScratch.prefix)not-a-pid-C", "other-\(ended.processIdentifier)-D"]
        for name in names {
            try FileManager.default.createDirectory(at: temporary.url.appendingPathComponent("\(name)/inside"),
                                                    withIntermediateDirectories: true)
        }
        ProcessScratch.removeFoldersOfEndedProcesses(in: temporary.url)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path))
        #expect(left == Set(names.dropFirst()), "only the ended process's folder goes")
    }

    @Test func aFolderLastsAsLongAsTheProcess() throws {
        let folder = try ProcessScratch.folder("scratch-test")
        let root = folder.deletingLastPathComponent()
        #expect(root.lastPathComponent.hasPrefix("\(ProcessScratch.prefix)\(getpid())-"))
        #expect(FileManager.default.fileExists(atPath: folder.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
