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
internal import ModuleHostJSON

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

    /// The manifest's top-level fields. `$schema` names a JSON Schema for editors (such as `./modules.schema.json`)
    /// and is otherwise ignored.
    static let rootFields = ["$schema", "version", "routing", "modules"]
    static let entryFields = ["type", "enabled", "eager", "config", "priority", "timeout", "failurePolicy", "operations", "library", "sha256", "optional", "routes"]
    static let routingFields = ["scheme", "externalSchemes", "host"]
    static let routeOverrideFields = ["external", "enabled"]
    static let overrideFields = ["priority", "timeout", "failurePolicy"]

    static func read(contentsOf url: URL) -> Result {
        read(atPath: url.path)
    }

    /// Reads the manifest file at `file`, a path as ``read(contentsOf:)`` takes it from a file URL.
    static func read(atPath file: String) -> Result {
        func failure(_ code: ManifestDiagnostic.Code, _ message: String) -> Result {
            var sink = DiagnosticSink(file: file)
            sink.report(.error, code, path: "", location: nil, message)
            return Result(manifest: nil, sink: sink)
        }
        switch RegularFile.read(atPath: file, limit: maximumFileSize, check: { _ in }) {
        case .success(let bytes):
            return read(bytes: bytes, file: file)
        case .failure(.notFound):
            return failure(.fileNotFound, "no manifest file at this path; expected a JSON file listing the app's modules")
        case .failure(.notRegular(.directory)):
            return failure(.isDirectory, "this is a directory; expected a JSON manifest file (for example \(file)/modules.json)")
        case .failure(.notRegular(let kind)):
            return failure(.notARegularFile, "this is \(kind.description), not a regular file; expected a JSON manifest file")
        case .failure(.tooLarge(let size)):
            let what = size.map { "the file is \($0) bytes" } ?? "the file is larger than \(maximumFileSize) bytes"
            return failure(.fileTooLarge, "\(what); manifests are limited to \(maximumFileSize) bytes")
        case .failure(.unreadable(let reason)):
            return failure(.unreadable, "the file cannot be read: \(reason) (check its permissions)")
        }
    }

    static func read(_ data: Data, file: String?) -> Result {
        read(bytes: [UInt8](data), file: file)
    }

    /// Reads manifest `bytes`; `file` names them in diagnostics.
    static func read(bytes: [UInt8], file: String?) -> Result {
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
