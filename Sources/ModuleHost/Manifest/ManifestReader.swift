import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns manifest bytes into a ``Manifest``, collecting every structural problem in one pass.
///
/// It checks the file (exists, not a directory, readable, not empty, not huge), the JSON syntax, and the
/// shape of every field. Type names are resolved later, by ``ManifestValidator``.
enum ManifestReader {
    /// The largest manifest read; a real one is a few kilobytes, so anything bigger is a mistake or an attack.
    static let maximumFileSize = 8 << 20

    /// What reading produced: the manifest when its structure is sound, and the sink holding every diagnostic
    /// found, which later stages go on reporting into.
    struct Result {
        var manifest: Manifest?
        var sink: DiagnosticSink

        /// Every diagnostic found so far.
        var diagnostics: [ManifestDiagnostic] { sink.diagnostics }

        func manifestOrThrow(file: String?) throws(ManifestError) -> Manifest {
            guard let manifest, !sink.hasErrors else {
                throw ManifestError(file: file, diagnostics: sink.diagnostics)
            }
            return manifest
        }
    }

    static let rootFields = ["version", "modules"]
    static let entryFields = ["type", "enabled", "eager", "config", "priority", "timeout", "failurePolicy", "operations", "library", "sha256", "optional"]
    static let overrideFields = ["priority", "timeout", "failurePolicy"]

    static func read(contentsOf url: URL) -> Result {
        let file = url.path
        func failure(_ code: ManifestDiagnostic.Code, _ message: String) -> Result {
            var sink = DiagnosticSink(file: file)
            sink.report(.error, code, path: "", location: nil, message)
            return Result(manifest: nil, sink: sink)
        }
        switch readRegularFile(atPath: file, limit: maximumFileSize) {
        case .success(let bytes):
            return read(Data(bytes), file: file)
        case .failure(.notFound):
            return failure(.fileNotFound, "no manifest file at this path; expected a JSON file listing the app's modules")
        case .failure(.directory):
            return failure(.isDirectory, "this is a directory; expected a JSON manifest file (for example \(file)/modules.json)")
        case .failure(.notRegular(let kind)):
            return failure(.notARegularFile, "this is \(kind), not a regular file; expected a JSON manifest file")
        case .failure(.tooLarge(let size)):
            let what = size.map { "the file is \($0) bytes" } ?? "the file is larger than \(maximumFileSize) bytes"
            return failure(.fileTooLarge, "\(what); manifests are limited to \(maximumFileSize) bytes")
        case .failure(.unreadable(let reason)):
            return failure(.unreadable, "the file cannot be read: \(reason) (check its permissions)")
        }
    }

    /// Why a manifest file was not read.
    enum FileProblem: Error {
        case notFound
        case directory
        case notRegular(String)
        case tooLarge(Int?)
        case unreadable(String)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    ///
    /// The file is opened without blocking (`O_NONBLOCK`, so a FIFO with no writer cannot hang the open) and
    /// without becoming a controlling terminal, its type and size are taken from that descriptor (`fstat`), and
    /// the bytes are read from the same descriptor: no other file can be swapped in between check and read.
    static func readRegularFile(atPath path: String, limit: Int) -> Swift.Result<[UInt8], FileProblem> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: return .failure(.notFound)
            case EISDIR: return .failure(.directory)
            default: return .failure(.unreadable(String(cString: strerror(code))))
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(.unreadable(String(cString: strerror(errno))))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(.directory)
        case S_IFIFO: return .failure(.notRegular("a FIFO (named pipe)"))
        case S_IFCHR: return .failure(.notRegular("a character device"))
        case S_IFBLK: return .failure(.notRegular("a block device"))
        case S_IFSOCK: return .failure(.notRegular("a socket"))
        default: return .failure(.notRegular("not a file"))
        }
        if status.st_size > limit { return .failure(.tooLarge(Int(status.st_size))) }
        // Read at most one byte past the limit, so a file that grows after the size check is still bounded.
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), limit) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            count += got
            if count == bytes.count, count <= limit {
                bytes.append(contentsOf: repeatElement(0, count: min(count, limit + 1 - count)))
            }
        }
        if count > limit { return .failure(.tooLarge(nil)) }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    static func read(_ data: Data, file: String?) -> Result {
        let bytes = [UInt8](data)
        var context = Context(file: file, source: bytes)
        if bytes.count > maximumFileSize {
            context.error(.fileTooLarge, "", nil, "the manifest is \(bytes.count) bytes; the limit is \(maximumFileSize)")
            return Result(manifest: nil, sink: context.sink)
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            context.error(.emptyFile, "", nil, "the manifest is empty; expected a JSON object such as {\"version\": 1, \"modules\": []}")
            return Result(manifest: nil, sink: context.sink)
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            context.error(.malformedJSON, "", error.location, "malformed JSON: \(error.message)")
            return Result(manifest: nil, sink: context.sink)
        }
        let manifest = context.readRoot(root)
        return Result(manifest: manifest, sink: context.sink)
    }
}

// `read` is shadowed by the reader's own `read` functions; name the C function explicitly.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.read(fd, buffer, count)
    #elseif canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Musl.read(fd, buffer, count)
    #endif
}
