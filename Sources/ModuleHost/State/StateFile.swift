import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small file in a module's state directory, read with a size bound and replaced atomically.
///
/// Writes go to a new temporary file in the same directory (created with `O_CREAT | O_EXCL`, mode 0600),
/// are synced, then renamed over the target: an interruption at any point leaves the old file or the new
/// one, never a partial one. The directory is created with mode 0700. Symbolic links are not followed.
public struct StateFile: Sendable {
    /// The last step of a write: puts the finished temporary file at `targetPath`, returning `false` (with `errno`
    /// set) on failure. The default is rename(2); tests pass a failing step to check that the old file survives.
    package typealias Replace = @Sendable (_ temporaryPath: String, _ targetPath: String) -> Bool

    /// rename(2).
    package static let rename: Replace = { temporaryPath, targetPath in systemRename(temporaryPath, targetPath) == 0 }

    /// Where the file lives.
    package let url: URL
    /// The largest file ``read()`` accepts.
    package let maximumSize: Int
    private let replace: Replace

    /// A state file at `url`, read only if at most `maximumSize` bytes.
    public init(url: URL, maximumSize: Int = 1 << 20) {
        self.init(url: url, maximumSize: maximumSize, replace: Self.rename)
    }

    /// A state file whose writes end with `replace` instead of rename(2).
    package init(url: URL, maximumSize: Int, replace: @escaping Replace) {
        self.url = url
        self.maximumSize = maximumSize
        self.replace = replace
    }

    private var directory: URL { url.deletingLastPathComponent() }

    /// The file's content, or `nil` when there is no file.
    public func read() throws(StateFileError) -> Data? {
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw StateFileError(.unreadable, path: path, message: "cannot read \(path): \(Self.reason())")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StateFileError(.unreadable, path: path, message: "cannot read \(path): \(Self.reason())")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > maximumSize {
                throw StateFileError(.tooLarge, path: path, message: "\(path) is larger than \(maximumSize) bytes, the limit for this file")
            }
        }
        return Data(bytes)
    }

    /// Replaces the file's content atomically, creating the state directory (0700) if needed; the file is 0600.
    public func write(_ data: Data) throws(StateFileError) {
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
        syncDirectory()
    }

    /// Deletes the file; a missing file is not an error.
    public func remove() throws(StateFileError) {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw StateFileError(.removeFailed, path: url.path, message: "cannot delete \(url.path): \(Self.reason())")
        }
        syncDirectory()
    }

    /// Deletes temporary files that interrupted writes of this file left behind, if older than `age` seconds
    /// (younger ones may belong to a write in progress in another process).
    public func removeStaleTemporaryFiles(olderThan age: TimeInterval = 60) {
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

    private func writeError(_ what: String) -> StateFileError {
        StateFileError(.writeFailed, path: url.path, message: "\(what): \(Self.reason())")
    }

    private func createDirectory() throws(StateFileError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StateFileError(.directoryUnavailable, path: path, message: "the state directory \(path) is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateFileError(.directoryUnavailable, path: path,
                                 message: "cannot create the state directory \(path): \(error.localizedDescription)")
        }
        // The umask may have removed bits; make it exactly 0700.
        guard chmod(path, 0o700) == 0 else {
            throw StateFileError(.directoryUnavailable, path: path,
                                 message: "cannot set permissions of the state directory \(path): \(Self.reason())")
        }
    }

    /// Makes a rename or unlink durable; best effort.
    private func syncDirectory() {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func writeAll(_ data: Data, to fd: Int32, error: () -> StateFileError) throws(StateFileError) {
        let failed: Bool = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, base + offset, buffer.count - offset)
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

    private static func reason() -> String {
        String(cString: strerror(errno))
    }
}

// `read`, `write` and `rename` are shadowed by the members above; name the C functions explicitly.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.read(fd, buffer, count)
    #elseif canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Musl.read(fd, buffer, count)
    #endif
}

private func systemRename(_ from: String, _ to: String) -> Int32 {
    #if canImport(Darwin)
    Darwin.rename(from, to)
    #elseif canImport(Glibc)
    Glibc.rename(from, to)
    #else
    Musl.rename(from, to)
    #endif
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(fd, buffer, count)
    #elseif canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Musl.write(fd, buffer, count)
    #endif
}
