import Foundation

/// A fresh directory per test, removed when the test ends.
public struct TemporaryDirectory: ~Copyable {
    /// The directory.
    public let url: URL

    /// Creates an empty directory under the system's temporary directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("modulehost-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` inside the directory and returns its URL.
    public func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
