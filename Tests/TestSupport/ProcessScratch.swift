import Foundation

/// Folders that last as long as the test process, for what a test cannot remove when it ends: a plugin or a copy
/// of the package built once and shared by several tests, and the fixtures of suites that have no teardown.
///
/// Every folder is made inside one folder per process (`modulehost-scratch-<pid>-<uuid>` under the system's
/// temporary directory), which is removed when the process exits. A process that did not exit normally (killed,
/// crashed) leaves its folder behind; the next test process removes the folders of processes that are gone. A test
/// that owns its folder alone uses ``TemporaryDirectory`` instead, which goes when the test does.
public enum ProcessScratch {
    /// A fresh, empty, uniquely named folder inside this process's scratch folder.
    public static func folder(_ prefix: String) throws -> URL {
        let url = try root.get().appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// How a scratch folder's name starts; the process's id follows.
    public static let prefix = "modulehost-scratch-"

    /// The process's scratch folder, made on first use; its removal at exit is registered at the same time.
    private static let root = Result { () throws -> URL in
        let temporary = FileManager.default.temporaryDirectory
        removeFoldersOfEndedProcesses(in: temporary)
        let url = temporary.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { ProcessScratch.removeRoot() }
        return url
    }

    private static func removeRoot() {
        guard case .success(let url) = root else { return }
        try? FileManager.default.removeItem(at: url)
    }

    /// Removes the scratch folders in `temporary` whose process no longer exists (`kill(pid, 0)` fails with
    /// `ESRCH`). A folder of a live process, or of one this user may not signal, is left alone.
    public static func removeFoldersOfEndedProcesses(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }),
                  pid > 0, pid != getpid(), kill(pid, 0) == -1, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
