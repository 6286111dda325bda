#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ModuleHost
internal import ModuleHostSystemLibraries

/// Writing and removing a state file: atomically, in a folder created private, made durable.
extension StateFile {
    /// Replaces the file's content atomically, creating the state directory (0700) if needed; the file is 0600.
    ///
    /// - Parameter data: The new content.
    /// - Throws: `StateFileError` when the folder cannot be used or the file cannot be written (the old content is
    ///   then intact), or when the file belongs to a released instance (`ownerReleased`).
    public func write(_ data: Data) throws(StateFileError) {
        try checkOwner()
        try createDirectory()
        var generator = SystemRandomNumberGenerator()
        let suffix = Hex.encode((0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let temporaryPath = directory.appendingPathComponent(".\(url.lastPathComponent).\(suffix).tmp").path
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw StateFileError(.writeFailed, path: url.path,
                                 message: "cannot create a file in the state directory \(directory.path): \(Self.reason())")
        }
        var renamed = false
        defer { if !renamed { unlink(temporaryPath) } }
        do {
            defer { close(fd) }
            guard fchmod(fd, 0o600) == 0 else { throw writeError("cannot set permissions of \(temporaryPath)") }
            try Self.writeAll(data, to: fd) { writeError("cannot write \(temporaryPath)") }
            guard fsync(fd) == 0 else { throw writeError("cannot sync \(temporaryPath)") }
        }
        guard replace(temporaryPath, url.path) else { throw writeError("cannot replace \(url.path)") }
        renamed = true
        syncDirectory(directory)
    }

    /// Deletes the file; a missing file is not an error. A module's file is deleted from the old place too
    /// (`legacyURL`, unless a folder is there), so that it cannot be read back from there.
    ///
    /// - Throws: `StateFileError` when the file cannot be deleted, or belongs to a released instance (`ownerReleased`).
    public func remove() throws(StateFileError) {
        try checkOwner()
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw StateFileError(.removeFailed, path: url.path, message: "cannot delete \(url.path): \(Self.reason())")
        }
        syncDirectory(directory)
        if let hostDirectory, let legacy = legacyURL {
            var status = stat()
            guard lstat(legacy.path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return }
            guard unlink(legacy.path) == 0 || errno == ENOENT else {
                throw StateFileError(.removeFailed, path: legacy.path, message: "cannot delete \(legacy.path): \(Self.reason())")
            }
            syncDirectory(hostDirectory)
        }
    }

    /// Deletes temporary files that interrupted writes of this file left behind, if older than `age` seconds
    /// (younger ones may belong to a write in progress in another process).
    package func removeStaleTemporaryFiles(olderThan age: TimeInterval = 60) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        let limit = Date().addingTimeInterval(-age)
        for name in names where name.hasPrefix(".\(url.lastPathComponent).") && name.hasSuffix(".tmp") {
            let path = directory.appendingPathComponent(name).path
            guard let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  modified < limit else { continue }
            unlink(path)
        }
    }

    func writeError(_ what: String) -> StateFileError {
        StateFileError(.writeFailed, path: url.path, message: "\(what): \(Self.reason())")
    }

    /// Creates the host's state folder (for a module's file) and the file's folder, as far as they are missing.
    package func createDirectory() throws(StateFileError) {
        if try checkDirectory() { return }
        if let hostDirectory { try createDirectory(hostDirectory) }
        try createDirectory(directory)
    }

    /// Creates `directory` (mode 0700) and its missing parents, unless it exists; checks it either way.
    func createDirectory(_ directory: URL) throws(StateFileError) {
        if try checkDirectory(directory) { return }
        let path = directory.path
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw StateFileError(.directoryUnavailable, path: path,
                                 message: "cannot create the state directory \(path): \(error)")
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw StateFileError(.directoryUnavailable, path: path,
                                 message: "cannot create the state directory \(path): \(Self.reason())")
        }
        // Whoever made it (another process of ours, racing, or someone else): check it; the umask may also have
        // removed bits, which the check does not mind.
        guard try checkDirectory(directory) else {
            throw StateFileError(.directoryUnavailable, path: path, message: "the state directory \(path) disappeared")
        }
    }

    /// Makes a rename, link or unlink in `directory` durable; best effort.
    func syncDirectory(_ directory: URL) {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    static func writeAll(_ data: Data, to fd: Int32, error: () -> StateFileError) throws(StateFileError) {
        let failed: Bool = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            var offset = 0
            while offset < buffer.count {
                let written = SystemCalls.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += written
            }
            return false
        }
        if failed { throw error() }
    }
}
