internal import ModuleHostJSON
extension ManifestReader {
    /// Walks the parsed document, checking the shape of every field and reporting into one sink.
    struct Context {
        let source: [UInt8]
        var sink: DiagnosticSink

        init(file: String?, source: [UInt8]) {
            self.source = source
            self.sink = DiagnosticSink(file: file)
        }

        var file: String? { sink.file }

        mutating func error(_ code: ManifestDiagnostic.Code, _ path: String, _ location: JSONLocation?, _ message: String, suggestion: String? = nil) {
            sink.report(.error, code, path: path, location: location.map(ManifestDiagnostic.Location.init), message, suggestion: suggestion)
        }

        mutating func warning(_ code: ManifestDiagnostic.Code, _ path: String, _ location: JSONLocation?, _ message: String) {
            sink.report(.warning, code, path: path, location: location.map(ManifestDiagnostic.Location.init), message)
        }

        mutating func wrongType(_ path: String, _ value: JSONValue, expected: String) {
            error(.wrongType, path, value.location, "expected \(expected), found \(value.typeName)")
        }

        /// Reports every key that appears again in the same object (JSON parsers would silently keep one).
        mutating func checkRepeatedKeys(_ members: [JSONValue.Member], path: String) {
            var repetition = JSONValue.RepeatedKeys(members)
            for index in members.indices where !sink.isFull {
                guard repetition.isRepeated(at: index) else { continue }
                let member = members[index]
                error(.invalidValue, Self.memberPath(path, member.key), member.keyLocation,
                      "field \"\(member.key)\" appears more than once")
            }
        }

        /// `path.key`, or `key` at the root; a long key is cut (``DisplayText/keyLimit``), so that it does not repeat in
        /// full in every problem under it.
        static func memberPath(_ path: String, _ key: String) -> String {
            let name = DisplayText.clipped(key, to: DisplayText.keyLimit)
            return path.isEmpty ? name : "\(path).\(name)"
        }

        /// Reports repeated keys, and members not in `known` with the closest known name as a suggestion.
        mutating func checkFields(_ members: [JSONValue.Member], known: [String], path: String, what: String) {
            checkRepeatedKeys(members, path: path)
            for member in members where !sink.isFull && !known.contains(member.key) {
                let hint = Suggestions.closest(to: member.key, in: known).map { "did you mean \"\($0)\"?" }
                error(.unknownField, Self.memberPath(path, member.key), member.keyLocation,
                      "unknown field \"\(member.key)\" in \(what); expected one of \(known.map { "\"\($0)\"" }.joined(separator: ", "))",
                      suggestion: hint)
            }
        }

        /// `$schema` points editors at the manifest's JSON Schema; the host only checks that it is a string.
        mutating func checkSchemaReference(_ value: JSONValue?) {
            guard let value else { return }
            if case .string = value.kind { return }
            wrongType("$schema", value, expected: "a string naming the manifest's JSON Schema, like \"./modules.schema.json\"")
        }

        mutating func readRoot(_ root: JSONValue) -> Manifest? {
            guard case .object(let members) = root.kind else {
                wrongType("", root, expected: "an object with a \"modules\" array")
                return nil
            }
            checkFields(members, known: ManifestReader.rootFields, path: "", what: "the manifest")
            checkSchemaReference(root.member("$schema"))
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
            entries.reserveCapacity(elements.count)  // an entry is large: growing the array would copy them all again
            for (index, element) in elements.enumerated() {
                // Past the cap the manifest is rejected and the report final: the rest is not worth reading.
                if sink.isFull { break }
                if let entry = readEntry(element, path: "modules[\(index)]") {
                    entries.append(entry)
                }
            }
            if elements.isEmpty {
                warning(.noModules, "modules", modulesValue.location, "the manifest lists no modules")
            }
            let routing = root.member("routing").flatMap { readRouting($0) }
            return Manifest(version: version, modules: entries, file: file, routing: routing)
        }

        mutating func readEntry(_ value: JSONValue, path: String) -> Manifest.Entry? {
            switch value.kind {
            case .string(let name):
                guard checkTypeName(name, path: path, location: value.location) else { return nil }
                return Manifest.Entry(typeName: name, path: path, location: .init(value.location))
            case .object(let members):
                return readEntryObject(value, members, path: path)
            default:
                wrongType(path, value, expected: "a type name string or a module entry object")
                return nil
            }
        }

        /// The entry that the object `value` (of `members`) spells, or `nil` after a problem that makes it unusable.
        /// The fields are read into locals and the entry is made once, in the optional it is returned in: an entry
        /// made first and then filled in or wrapped was copied, every reference in it retained and released.
        private mutating func readEntryObject(_ value: JSONValue, _ members: [JSONValue.Member],
                                              path: String) -> Manifest.Entry? {
            checkFields(members, known: ManifestReader.entryFields, path: path, what: "a module entry")
            var valid = true
            var typeName = ""
            if let type = value.member("type") {
                if case .string(let name) = type.kind {
                    valid = checkTypeName(name, path: "\(path).type", location: type.location) && valid
                    typeName = name
                } else {
                    wrongType("\(path).type", type, expected: "a string naming the module's type, like \"AuthModule.AuthModule\"")
                    valid = false
                }
            } else {
                error(.missingField, path, value.location, "missing field \"type\"; expected the module's type name, like \"AuthModule.AuthModule\"")
                valid = false
            }
            let enabled = readBool(value, "enabled", path: path)
            let eager = readBool(value, "eager", path: path)
            let optional = readBool(value, "optional", path: path)
            let library = readString(value, "library", path: path, expected: "a path to a shared library")
            let sha256 = readString(value, "sha256", path: path, expected: "64 hexadecimal digits")
            var config: ModuleConfiguration?
            if let object = value.member("config") {
                if case .object = object.kind {
                    config = ModuleConfiguration(value: object, source: source, file: file, entryPath: path)
                } else {
                    wrongType("\(path).config", object, expected: "an object")
                    valid = false
                }
            }
            var startup = readOverrides(value, path: path)
            // The path is made only for an entry that has routes: joining it made a string for every entry.
            let routes = value.member("routes").map { readRouteOverrides($0, path: "\(path).routes") } ?? [:]
            readOperationOverrides(value.member("operations"), path: path, into: &startup)
            guard valid else { return nil }
            return Manifest.Entry(
                typeName: typeName, enabled: enabled ?? true, eager: eager ?? false, config: config, startup: startup,
                library: library, sha256: sha256, optional: optional ?? false, routes: routes, path: path,
                location: .init(value.location))
        }

        mutating func checkTypeName(_ name: String, path: @autoclosure () -> String, location: JSONLocation) -> Bool {
            if TypeNameSyntax.isBlank(name) {
                error(.invalidValue, path(), location, "the type name is empty; expected a name like \"AuthModule.AuthModule\"")
                return false
            }
            // Swift identifiers joined by dots; this also keeps mangled names away from the runtime lookup.
            if !TypeNameSyntax.isDottedIdentifiers(name) {
                error(.invalidValue, path(), location,
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
            guard case .string(let text) = value.kind else {
                wrongType("\(path).\(key)", value, expected: expected)
                return nil
            }
            guard !text.isEmpty else {
                error(.wrongType, "\(path).\(key)", value.location, "expected \(expected), found an empty string")
                return nil
            }
            return text
        }
    }
}
