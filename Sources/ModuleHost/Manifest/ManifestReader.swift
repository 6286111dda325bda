import Foundation

/// Turns manifest bytes into a ``Manifest``, collecting every structural problem in one pass.
///
/// It checks the file (exists, not a directory, readable, not empty, not huge), the JSON syntax, and the
/// shape of every field. Type names are resolved later, by ``ManifestValidator``.
enum ManifestReader {
    /// The largest manifest read; a real one is a few kilobytes, so anything bigger is a mistake or an attack.
    static let maximumFileSize = 8 << 20

    /// What reading produced: the manifest when its structure is sound, and every diagnostic found.
    struct Result {
        var manifest: Manifest?
        var diagnostics: [ManifestDiagnostic]

        func manifestOrThrow(file: String?) throws(ManifestError) -> Manifest {
            guard let manifest, !diagnostics.contains(where: { $0.severity == .error }) else {
                throw ManifestError(file: file, diagnostics: diagnostics)
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
            Result(manifest: nil, diagnostics: [ManifestDiagnostic(.error, code, file: file, path: "", location: nil, message: message)])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            return failure(.fileNotFound, "no manifest file at this path; expected a JSON file listing the app's modules")
        }
        if isDirectory.boolValue {
            return failure(.isDirectory, "this is a directory; expected a JSON manifest file (for example \(file)/modules.json)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
        if size > maximumFileSize {
            return failure(.fileTooLarge, "the file is \(size) bytes; manifests are limited to \(maximumFileSize) bytes")
        }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            return failure(.unreadable, "the file cannot be opened for reading (check its permissions)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            // Read at most one byte past the limit, so a file that grows after the size check is still bounded.
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            return failure(.unreadable, "the file cannot be read: \(error.localizedDescription)")
        }
        if data.count > maximumFileSize {
            return failure(.fileTooLarge, "the file is larger than \(maximumFileSize) bytes, the limit for manifests")
        }
        return read(data, file: file)
    }

    static func read(_ data: Data, file: String?) -> Result {
        let bytes = [UInt8](data)
        var context = Context(file: file, source: bytes)
        if bytes.count > maximumFileSize {
            context.error(.fileTooLarge, "", nil, "the manifest is \(bytes.count) bytes; the limit is \(maximumFileSize)")
            return Result(manifest: nil, diagnostics: context.diagnostics)
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            context.error(.emptyFile, "", nil, "the manifest is empty; expected a JSON object such as {\"version\": 1, \"modules\": []}")
            return Result(manifest: nil, diagnostics: context.diagnostics)
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            context.error(.malformedJSON, "", error.location, "malformed JSON: \(error.message)")
            return Result(manifest: nil, diagnostics: context.diagnostics)
        }
        let manifest = context.readRoot(root)
        return Result(manifest: manifest, diagnostics: context.diagnostics)
    }

    /// Collects diagnostics while walking the parsed document.
    struct Context {
        let file: String?
        let source: [UInt8]
        var diagnostics: [ManifestDiagnostic] = []

        /// Past this many diagnostics a hostile manifest only gets a final "too many" note, so memory stays bounded.
        static let maximumDiagnostics = 1000

        mutating func error(_ code: ManifestDiagnostic.Code, _ path: String, _ location: SourceLocation?, _ message: String, suggestion: String? = nil) {
            guard admit() else { return }
            diagnostics.append(ManifestDiagnostic(.error, code, file: file, path: path, location: location, message: message, suggestion: suggestion))
        }

        mutating func warning(_ code: ManifestDiagnostic.Code, _ path: String, _ location: SourceLocation?, _ message: String) {
            guard admit() else { return }
            diagnostics.append(ManifestDiagnostic(.warning, code, file: file, path: path, location: location, message: message))
        }

        /// Whether another diagnostic may be added; the first refusal adds the "too many" note.
        private mutating func admit() -> Bool {
            if diagnostics.count < Self.maximumDiagnostics { return true }
            if diagnostics.count == Self.maximumDiagnostics {
                diagnostics.append(ManifestDiagnostic(.error, .invalidValue, file: file, path: "", location: nil,
                                                      message: "too many problems; stopped reporting after \(Self.maximumDiagnostics)"))
            }
            return false
        }

        mutating func wrongType(_ path: String, _ value: JSONValue, expected: String) {
            error(.wrongType, path, value.location, "expected \(expected), found \(value.typeName)")
        }

        /// Reports members not in `known`, with the closest known name as a suggestion.
        /// Reports every key that appears again in the same object (JSON parsers would silently keep one).
        mutating func checkRepeatedKeys(_ members: [JSONValue.Member], path: String) {
            var seen: Set<String> = []
            for member in members where !seen.insert(member.key).inserted {
                let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                error(.invalidValue, memberPath, member.keyLocation, "field \"\(member.key)\" appears more than once")
            }
        }

        mutating func checkFields(_ members: [JSONValue.Member], known: [String], path: String, what: String) {
            checkRepeatedKeys(members, path: path)
            for member in members {
                let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                guard !known.contains(member.key) else { continue }
                let hint = Suggestions.closest(to: member.key, in: known).map { "did you mean \"\($0)\"?" }
                error(.unknownField, memberPath, member.keyLocation,
                      "unknown field \"\(member.key)\" in \(what); expected one of \(known.map { "\"\($0)\"" }.joined(separator: ", "))",
                      suggestion: hint)
            }
        }

        mutating func readRoot(_ root: JSONValue) -> Manifest? {
            guard case .object(let members) = root.kind else {
                wrongType("", root, expected: "an object with a \"modules\" array")
                return nil
            }
            checkFields(members, known: ManifestReader.rootFields, path: "", what: "the manifest")
            var version = 1
            if let value = root.member("version") {
                if case .number(let number, true) = value.kind, let integer = Int(exactly: number) {
                    version = integer
                    if !Manifest.supportedVersions.contains(integer) {
                        error(.unsupportedVersion, "version", value.location,
                              "manifest version \(integer) is not supported; this ModuleHost reads version \(Manifest.supportedVersions.upperBound)")
                    }
                } else {
                    wrongType("version", value, expected: "an integer")
                }
            }
            guard let modulesValue = root.member("modules") else {
                error(.missingField, "", root.location, "missing field \"modules\"; expected an array of module entries")
                return nil
            }
            guard case .array(let elements) = modulesValue.kind else {
                wrongType("modules", modulesValue, expected: "an array of module entries")
                return nil
            }
            var entries: [Manifest.Entry] = []
            for (index, element) in elements.enumerated() {
                if let entry = readEntry(element, path: "modules[\(index)]") {
                    entries.append(entry)
                }
            }
            if elements.isEmpty {
                warning(.noModules, "modules", modulesValue.location, "the manifest lists no modules")
            }
            return Manifest(version: version, modules: entries, file: file)
        }

        mutating func readEntry(_ value: JSONValue, path: String) -> Manifest.Entry? {
            switch value.kind {
            case .string(let name):
                guard checkTypeName(name, path: path, location: value.location) else { return nil }
                return Manifest.Entry(typeName: name, path: path, location: value.location)
            case .object(let members):
                checkFields(members, known: ManifestReader.entryFields, path: path, what: "a module entry")
                var valid = true
                var entry = Manifest.Entry(typeName: "", path: path, location: value.location)
                if let type = value.member("type") {
                    if case .string(let name) = type.kind {
                        valid = checkTypeName(name, path: "\(path).type", location: type.location) && valid
                        entry.typeName = name
                    } else {
                        wrongType("\(path).type", type, expected: "a string naming the module's type, like \"AuthModule.AuthModule\"")
                        valid = false
                    }
                } else {
                    error(.missingField, path, value.location, "missing field \"type\"; expected the module's type name, like \"AuthModule.AuthModule\"")
                    valid = false
                }
                if let enabled = readBool(value, "enabled", path: path) { entry.enabled = enabled }
                if let eager = readBool(value, "eager", path: path) { entry.eager = eager }
                if let optional = readBool(value, "optional", path: path) { entry.optional = optional }
                entry.library = readString(value, "library", path: path, expected: "a path to a shared library")
                entry.sha256 = readString(value, "sha256", path: path, expected: "64 hexadecimal digits")
                if let config = value.member("config") {
                    if case .object = config.kind {
                        entry.config = ModuleConfiguration(value: config, source: source, file: file, path: "\(path).config")
                    } else {
                        wrongType("\(path).config", config, expected: "an object")
                        valid = false
                    }
                }
                entry.startup = readOverrides(value, path: path)
                if let operations = value.member("operations") {
                    if case .object(let members) = operations.kind {
                        checkRepeatedKeys(members, path: "\(path).operations")
                        for member in members {
                            let operationPath = "\(path).operations.\(member.key)"
                            guard case .object(let fields) = member.value.kind else {
                                wrongType(operationPath, member.value, expected: "an object of startup overrides")
                                continue
                            }
                            checkFields(fields, known: ManifestReader.overrideFields, path: operationPath, what: "operation overrides")
                            entry.startup.operations[member.key] = readOverrides(member.value, path: operationPath)
                        }
                    } else {
                        wrongType("\(path).operations", operations, expected: "an object keyed by operation identifier")
                    }
                }
                return valid ? entry : nil
            default:
                wrongType(path, value, expected: "a type name string or a module entry object")
                return nil
            }
        }

        mutating func checkTypeName(_ name: String, path: String, location: SourceLocation) -> Bool {
            if name.allSatisfy(\.isWhitespace) {
                error(.invalidValue, path, location, "the type name is empty; expected a name like \"AuthModule.AuthModule\"")
                return false
            }
            // Swift identifiers joined by dots; this also keeps mangled names away from the runtime lookup.
            let isIdentifier = { (part: Substring) -> Bool in
                guard let first = part.first, first == "_" || first.isLetter else { return false }
                return part.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
            }
            if !name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isIdentifier) {
                error(.invalidValue, path, location,
                      "\"\(name)\" is not a type name; expected Swift identifiers joined by dots, like \"AuthModule.AuthModule\"")
                return false
            }
            return true
        }

        mutating func readBool(_ object: JSONValue, _ key: String, path: String) -> Bool? {
            guard let value = object.member(key) else { return nil }
            guard case .bool(let flag) = value.kind else {
                wrongType("\(path).\(key)", value, expected: "true or false")
                return nil
            }
            return flag
        }

        mutating func readString(_ object: JSONValue, _ key: String, path: String, expected: String) -> String? {
            guard let value = object.member(key) else { return nil }
            guard case .string(let text) = value.kind, !text.isEmpty else {
                wrongType("\(path).\(key)", value, expected: expected)
                return nil
            }
            return text
        }

        mutating func readOverrides(_ object: JSONValue, path: String) -> StartupOverrides {
            var overrides = StartupOverrides()
            if let value = object.member("priority") {
                let names = StartupPriority.allCases.map(\.rawValue)
                if case .string(let name) = value.kind, let priority = StartupPriority(rawValue: name) {
                    overrides.priority = priority
                } else if case .string(let name) = value.kind {
                    error(.invalidValue, "\(path).priority", value.location,
                          "unknown priority \"\(name)\"; expected one of \(names.joined(separator: ", "))",
                          suggestion: Suggestions.closest(to: name, in: names).map { "did you mean \"\($0)\"?" })
                } else {
                    wrongType("\(path).priority", value, expected: "a priority name (\(names.joined(separator: ", ")))")
                }
            }
            if let value = object.member("timeout") {
                // At least a millisecond: timeouts are kept in milliseconds, and a zero one would fire at once.
                if case .number(let seconds, _) = value.kind, seconds >= 0.001, seconds <= 86_400 {
                    overrides.timeout = .milliseconds(Int64((seconds * 1000).rounded()))
                } else if case .number = value.kind {
                    error(.invalidValue, "\(path).timeout", value.location, "expected a timeout in seconds from 0.001 to 86400")
                } else {
                    wrongType("\(path).timeout", value, expected: "a number of seconds")
                }
            }
            if let value = object.member("failurePolicy") {
                if case .string(let name) = value.kind, let policy = StartupFailurePolicy(rawValue: name) {
                    overrides.failurePolicy = policy
                } else {
                    let found = if case .string(let name) = value.kind { "\"\(name)\"" } else { value.typeName }
                    error(.invalidValue, "\(path).failurePolicy", value.location, "expected \"required\" or \"optional\", found \(found)")
                }
            }
            return overrides
        }
    }
}
