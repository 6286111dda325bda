#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a regular file, at most a given number of bytes, and never waits on a file of another kind.
///
/// The path is looked at first (`lstat`, or `stat` when links are followed), so a FIFO, device or socket is
/// refused before it is opened. The file is then opened without blocking (`O_NONBLOCK`: one swapped in for a FIFO
/// meanwhile cannot hang the open) and without becoming a controlling terminal; its kind and size are taken again
/// from that descriptor, and the bytes are read from it: no other file can be swapped in between check and read.
/// The one implementation for manifests, state files and other files modules read.
package enum RegularFile {
    /// What a path is when it is not a regular file.
    package enum Kind: Sendable, Equatable {
        case directory, fifo, characterDevice, blockDevice, socket, symbolicLink, other

        /// "a FIFO (named pipe)", "a directory"…
        package var description: String {
            switch self {
            case .directory: "a directory"
            case .fifo: "a FIFO (named pipe)"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .symbolicLink: "a symbolic link"
            case .other: "not a regular file"
            }
        }
    }

    /// Why a file was not read.
    package enum Failure: Error, Equatable {
        case notFound
        case notRegular(Kind)
        /// Its size, when known before reading.
        case tooLarge(Int?)
        /// The system's reason.
        case unreadable(String)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them. `check` sees the opened file's status
    /// before anything is read and may refuse it by throwing.
    package static func read<CheckFailure: Error>(
        atPath path: String, limit: Int, followingLinks: Bool = true, check: (stat) throws(CheckFailure) -> Void
    ) throws(CheckFailure) -> Result<[UInt8], Failure> {
        var before = stat()
        guard (followingLinks ? stat(path, &before) : lstat(path, &before)) == 0 else { return .failure(failure(errno)) }
        if let kind = kind(of: before) { return .failure(.notRegular(kind)) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else { return .failure(failure(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(reason(errno))) }
        if let kind = kind(of: status) { return .failure(.notRegular(kind)) }
        try check(status)
        if Int64(status.st_size) > Int64(limit) { return .failure(.tooLarge(Int(status.st_size))) }
        return readAll(descriptor, limit: limit, expectedSize: Int(clamping: status.st_size))
    }

    /// `nil` for a regular file, else what it is.
    package static func kind(of status: stat) -> Kind? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: .directory
        case S_IFIFO: .fifo
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFSOCK: .socket
        case S_IFLNK: .symbolicLink
        default: .other
        }
    }

    /// Reads to the end, at most one byte past `limit`, so a file that grew after its size was checked is bounded.
    /// A file of `expectedSize` bytes (its size when checked) is read straight into an array of that size plus
    /// one byte, with no other buffer; one that grew meanwhile is read on in chunks.
    private static func readAll(_ descriptor: Int32, limit: Int, expectedSize: Int) -> Result<[UInt8], Failure> {
        var failure: Failure?
        var reachedEnd = false
        let capacity = min(max(expectedSize, 0), limit) + 1
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            while count < buffer.count {
                switch readOnce(descriptor, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...]))) {
                case .failure(let error): failure = error; return
                case .success(0): reachedEnd = true; return
                case .success(let read): count += read
                }
            }
        }
        if let failure { return .failure(failure) }
        if bytes.count > limit { return .failure(.tooLarge(nil)) }
        if reachedEnd { return .success(bytes) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let room = limit + 1 - bytes.count
            switch chunk.withUnsafeMutableBytes({ readOnce(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0.prefix(room))) }) {
            case .failure(let error): return .failure(error)
            case .success(0): return .success(bytes)
            case .success(let count):
                bytes += chunk[0..<count]
                if bytes.count > limit { return .failure(.tooLarge(nil)) }
            }
        }
    }

    /// One `read` into `buffer`, again when a signal interrupts it, asking for at most 1 GiB (Darwin refuses a
    /// count past `INT_MAX`, where Linux reads less): the number of bytes read, 0 at the end of the file.
    private static func readOnce(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Failure> {
        while true {
            let count = SystemCalls.read(descriptor, buffer.baseAddress, min(buffer.count, 1 << 30))
            if count >= 0 { return .success(count) }
            if errno != EINTR { return .failure(.unreadable(reason(errno))) }
        }
    }

    private static func failure(_ code: Int32) -> Failure {
        switch code {
        case ENOENT, ENOTDIR: .notFound
        case EISDIR: .notRegular(.directory)
        case ELOOP: .notRegular(.symbolicLink)
        case ENXIO: .notRegular(.other)
        default: .unreadable(reason(code))
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
