import Foundation

/// A module's `config` object from the manifest, kept as JSON until the module's own type decodes it.
///
/// Decoding errors are reported like any manifest problem: with the file, the JSON path inside the config
/// (`modules[0].config.users[1].passwordHash`) and the line and column.
struct ModuleConfiguration: Sendable {
    /// The config value's JSON text.
    let data: Data
    /// The manifest file it came from, for diagnostics.
    let file: String?
    /// Its JSON path in the manifest, such as `modules[0].config`.
    let path: String
    let root: JSONValue?

    /// Wraps JSON data given in code (for example in tests) as a module configuration.
    init(json data: Data, path: String = "config") {
        self.data = data
        self.file = nil
        self.path = path
        self.root = try? JSONParser.parse(Array(data))
    }

    init(value: JSONValue, source: [UInt8], file: String?, path: String) {
        self.data = Data(source[value.byteRange])
        self.file = file
        self.path = path
        self.root = value
    }

    /// The configuration used when a manifest entry has none: an empty object.
    static func empty(file: String?, path: String) -> ModuleConfiguration {
        ModuleConfiguration(value: JSONValue(kind: .object([]), location: SourceLocation(line: 0, column: 0), byteRange: 0..<2),
                            source: Array("{}".utf8), file: file, path: path)
    }

    /// Decodes the configuration into `type`, or throws a located diagnostic explaining what was expected.
    func decode<Configuration: Decodable>(_ type: Configuration.Type) throws(ManifestError) -> Configuration {
        do {
            return try JSONDecoder().decode(Configuration.self, from: data)
        } catch {
            throw ManifestError(file: file, diagnostics: [diagnostic(for: error, decoding: type)])
        }
    }

    private func diagnostic(for error: any Error, decoding type: Any.Type) -> ManifestDiagnostic {
        let typeName = String(reflecting: type)
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
        let location = node.flatMap { $0.location.line > 0 ? $0.location : nil }
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
        if [Int.self, Int64.self, Int32.self, UInt.self, UInt64.self].contains(where: { $0 == type }) { return "an integer" }
        if type == Double.self || type == Float.self { return "a number" }
        let name = String(describing: type)
        if name.hasPrefix("Array<") { return "an array" }
        if name.hasPrefix("Dictionary<") { return "an object" }
        return name
    }
}
