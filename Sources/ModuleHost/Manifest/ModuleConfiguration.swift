#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import ModuleHostJSON

/// A module's `config` object from the manifest, kept as JSON until the module's own type decodes it.
///
/// Decoding errors are reported like any manifest problem: with the file, the JSON path inside the config
/// (`modules[0].config.users[1].passwordHash`) and the line and column.
///
/// A class (it never changes): a manifest entry holds one reference, where a value of half a dozen references was
/// copied, each retained, with every copy of the entry.
final class ModuleConfiguration: Sendable {
    /// The manifest file it came from, for diagnostics.
    let file: String?
    /// Its JSON path in the manifest, such as `modules[0].config`.
    var path: String { pathParts.base + pathParts.suffix }
    /// The path in two parts, joined only when a diagnostic needs it: a config read from a manifest entry keeps the
    /// entry's path and `.config`, where joining them made a string for every entry.
    private let pathParts: (base: String, suffix: String)
    let root: JSONValue?
    /// The bytes `root`'s byte ranges index (the whole manifest, for a config read from one).
    private let source: [UInt8]
    /// Why `root` is missing: the config given in code is not valid JSON.
    private let syntaxError: JSONParser.SyntaxError?

    /// Wraps JSON data given in code (for example in tests) as a module configuration.
    init(json data: Data, path: String = "config") {
        self.file = nil
        self.pathParts = (path, "")
        self.source = Array(data)
        do {
            self.root = try JSONParser.parse(source)
            self.syntaxError = nil
        } catch {
            self.root = nil
            self.syntaxError = error
        }
    }

    /// The config `value` of the manifest entry at `entryPath`, in `source`, the manifest's bytes.
    init(value: JSONValue, source: [UInt8], file: String?, entryPath: String) {
        self.file = file
        self.pathParts = (entryPath, ".config")
        self.root = value
        self.source = source
        self.syntaxError = nil
    }

    /// The configuration used when a manifest entry (at `entryPath`) has none: an empty object.
    static func empty(file: String?, entryPath: String) -> ModuleConfiguration {
        ModuleConfiguration(value: JSONValue(kind: .object([]), location: JSONLocation(line: 0, column: 0), byteRange: 0..<2),
                            source: Array("{}".utf8), file: file, entryPath: entryPath)
    }

    /// Decodes the configuration into `type`, or throws located diagnostics explaining what was expected.
    ///
    /// The check is the one a module gets at load: repeated keys, keys `type` never asks for (with the closest
    /// one it does ask for), values of the wrong kind or out of range, and whatever `type`'s `init(from:)`
    /// throws itself, each at its JSON path and line and column.
    func decode<Configuration: Decodable>(_ type: Configuration.Type) throws(ManifestError) -> Configuration {
        guard let root else {
            let message = "the config is not valid JSON: \(syntaxError?.message ?? "unreadable")"
            throw ManifestError(file: file, diagnostics: [
                ManifestDiagnostic(.error, .invalidConfig, file: file, path: path, location: nil, message: message)
            ])
        }
        var problems: [ManifestDiagnostic] = []
        repeatedKeys(in: root, into: &problems)
        let run = JSONValueDecoder.Run(source: source)
        let decoded: Configuration
        do {
            decoded = try JSONValueDecoder(value: root, codingPath: [], run: run).decode(Configuration.self)
        } catch {
            problems.append(diagnostic(for: error, decoding: type))
            throw ManifestError(file: file, diagnostics: problems)
        }
        unknownKeys(in: run, decoding: type, into: &problems)
        guard problems.isEmpty else { throw ManifestError(file: file, diagnostics: problems) }
        return decoded
    }

    /// Reports the members of every object decoded that the configuration's `init(from:)` never asked for.
    private func unknownKeys(in run: JSONValueDecoder.Run, decoding type: Any.Type, into problems: inout [ManifestDiagnostic]) {
        var typeName: String?  // made only for a problem: printing a type is slow the first time
        run.forEachVisitedObject { object in
            guard !object.readAllKeys else { return }
            let members = object.members
            // Made once per object, and only for one that has a member not asked for: the usual config has none.
            var asked: (names: Set<String>, sorted: [String], expected: String)?
            for index in members.indices where !object.wasAsked(member: index) {
                if asked == nil {
                    let names = object.askedKeys, sorted = names.sorted()
                    asked = (names, sorted, Self.expectedFields(sorted))
                }
                let member = members[index]
                // A repeated key's earlier members: its last member was asked for.
                guard let keys = asked, !keys.names.contains(member.key) else { continue }
                let name = typeName ?? TypeName.of(type)
                typeName = name
                guard problems.count <= DiagnosticSink.maximumDiagnostics else { return }
                let memberPath = object.codingPath + [AnyConfigurationKey(stringValue: member.key)]
                problems.append(ManifestDiagnostic(
                    .error, .invalidConfig, file: file, path: CodingPathText.path(memberPath, from: path),
                    location: .init(member.keyLocation),
                    message: "unknown field \"\(member.key)\" in the config of \(name); \(keys.expected)",
                    suggestion: Suggestions.closest(to: member.key, in: keys.sorted).map { "did you mean \"\($0)\"?" }))
            }
        }
    }

    /// "expected one of …" for the fields a type asked for (sorted): the first twenty, and how many more.
    private static func expectedFields(_ asked: [String]) -> String {
        guard !asked.isEmpty else { return "it reads no fields here" }
        let shown = asked.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
        return "expected one of \(shown)" + (asked.count > 20 ? " and \(asked.count - 20) more" : "")
    }

    private func diagnostic(for error: any Error, decoding type: Any.Type) -> ManifestDiagnostic {
        let typeName = TypeName.of(type)
        guard let decodingError = error as? DecodingError else {
            return located([], "\(typeName) rejected the config: \(error)")
        }
        switch decodingError {
        case .typeMismatch(let expected, let context):
            return located(context.codingPath, "expected \(Self.describe(expected)), found \(found(at: context.codingPath))")
        case .valueNotFound(let expected, let context):
            return located(context.codingPath, "expected \(Self.describe(expected)), found null or nothing")
        case .keyNotFound(let key, let context):
            return located(context.codingPath, "missing field \"\(key.stringValue)\" required by \(typeName)")
        case .dataCorrupted(let context):
            return located(context.codingPath, context.debugDescription)
        @unknown default:
            return located([], "\(typeName) rejected the config: \(decodingError)")
        }
    }

    private func located(_ codingPath: [any CodingKey], _ message: String) -> ManifestDiagnostic {
        let text = CodingPathText.path(codingPath, from: path)
        let node = value(at: codingPath)
        let location = node.flatMap { $0.location.line > 0 ? ManifestDiagnostic.Location($0.location) : nil }
        return ManifestDiagnostic(.error, .invalidConfig, file: file, path: text, location: location, message: message)
    }

    /// The deepest value in the parsed config that the coding path reaches.
    private func value(at codingPath: [any CodingKey]) -> JSONValue? {
        guard var node = root else { return nil }
        for key in codingPath {
            switch node.kind {
            case .object:
                guard let next = node.member(key.stringValue) else { return node }
                node = next
            case .array(let elements):
                guard let index = key.intValue, elements.indices.contains(index) else { return node }
                node = elements[index]
            default:
                return node
            }
        }
        return node
    }

    private func found(at codingPath: [any CodingKey]) -> String {
        value(at: codingPath)?.typeName ?? "another type"
    }

    private static func describe(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Bool.self { return "a boolean" }
        if type is any FixedWidthInteger.Type { return "an integer" }
        if type == Double.self || type == Float.self { return "a number" }
        let name = String(describing: type)
        if name.hasPrefix("Array<") { return "an array" }
        if name.hasPrefix("Dictionary<") { return "an object" }
        return name
    }
}
