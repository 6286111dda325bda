import Foundation

/// Folders that last as long as the test process, for what a test cannot remove when it ends: a plugin or a copy
/// of the package built once and shared by several tests, and the fixtures of suites that have no teardown.
///
/// Every folder is made inside one folder per process (`modulehost-tests-<pid>-<uuid>` under the system's
/// temporary directory), which is removed when the process exits. A test that owns its folder alone uses
/// ``TemporaryDirectory`` instead, which goes when the test does.
public enum ProcessScratch {
    /// A fresh, empty, uniquely named folder inside this process's scratch folder.
    public static func folder(_ prefix: String) throws -> URL {
        let url = try root.get().appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The process's scratch folder, made on first use; its removal at exit is registered at the same time.
    private static let root = Result { () throws -> URL in
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("modulehost-tests-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { ProcessScratch.removeRoot() }
        return url
    }

    private static func removeRoot() {
        guard case .success(let url) = root else { return }
        try? FileManager.default.removeItem(at: url)
    }
}
