import ModuleHostJSON

/// The Swift file the ManifestCheck plugin generates into a host's build: each module type the manifest names, as
/// code, under a `#sourceLocation` that points at the manifest's entry. A type that does not exist, a module that is
/// not linked, or a type that is not a module is then a compile error located in the manifest; so is malformed JSON,
/// as an `#error`. The fields' shapes are the run's to check (`app-shell validate`).
enum LinkedModulesSource {
    /// One module entry the build checks: its type name and the line of the manifest it is on.
    struct Entry: Equatable {
        let typeName: String
        let line: Int
    }

    /// The entries the build can check: enabled entries of linked modules. Plugin entries (`library`) and disabled
    /// ones are left to the run; so is a name that is not a plain qualified Swift name (the run says what is wrong).
    /// The manifest is read by the run's own reader (ModuleHostJSON): escapes, repeated keys (the last wins) and a
    /// byte order mark mean here what they mean there.
    static func entries(in manifest: JSONValue) -> [Entry] {
        guard case .array(let modules)? = manifest.member("modules")?.kind else { return [] }
        var seen: Set<String> = []
        return modules.compactMap { module -> Entry? in
            let name: JSONValue?
            switch module.kind {
            case .string: name = module
            case .object:
                if module.member("library") != nil { return nil }
                if case .bool(false)? = module.member("enabled")?.kind { return nil }
                name = module.member("type")
            default: name = nil
            }
            guard let name, case .string(let text) = name.kind, isQualifiedName(text), seen.insert(text).inserted else { return nil }
            return Entry(typeName: text, line: name.location.line)
        }
    }

    /// `Module.Type` or `Module.Outer.Inner`: identifiers of letters, digits and `_`, not starting with a digit.
    static func isQualifiedName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            guard let first = part.first, first.isLetter || first == "_" else { return false }
            return part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
    }

    /// The generated file for `entries` of the manifest at `path`, or for a manifest that could not be read.
    static func text(entries: [Entry], manifest path: String, problem: JSONParser.SyntaxError? = nil) -> String {
        // `#sourceLocation(file:)` reads its string without escapes: a path that needs one is not named there, and
        // the errors point at the generated file instead of a wrong one.
        let plain = !path.unicodeScalars.contains { "\\\"".unicodeScalars.contains($0) || Self.needsEscape($0) }
        func located(_ line: Int) -> [String] { plain ? ["#sourceLocation(file: \"\(path)\", line: \(line))"] : [] }
        let ended = plain ? ["#sourceLocation()"] : []
        var imports: [String] = [], members: [String] = [], names: [String] = []
        var imported: Set<String> = ["`ModuleHost`"]
        for (index, entry) in entries.enumerated() {
            // Each part in backticks: a keyword (`class.Foo`) or a member named `self` is then a name, which the
            // compiler looks up and does not find, at the entry's line.
            let parts = entry.typeName.split(separator: ".").map { "`\($0)`" }
            if imported.insert(parts[0]).inserted { imports += located(entry.line) + ["import \(parts[0])"] + ended }
            // A line-control statement cannot sit inside an expression: one declaration per entry. A type that is
            // not a module fails `module(_:)`'s constraint: "requires that 'X' conform to 'ModuleProtocol'".
            members += located(entry.line) + ["    static let entry\(index) = module(\(parts[0])::\(parts.dropFirst().joined(separator: ".")).self)"]
                + ended
            names.append("        \(quoted(entry.typeName)): entry\(index),")
        }
        let failures = problem.map { located($0.location.line) + ["#error(\(quoted("malformed JSON at column \($0.location.column): \($0.message)")))"]
                                     + ended } ?? []
        return (["// Generated into the build by the ManifestCheck plugin (Sources/ManifestCheckTool) from \(String((path.split(separator: "/").last ?? "").unicodeScalars.map { needsEscape($0) ? "?" : Character($0) })).",
                 "// It names each module type the manifest lists, so the compiler checks the manifest.",
                 "import ModuleHost"] + imports + failures + [
                 "",
                 "/// The module types the package's manifest names, by name, checked by the compiler; the manager finds them here",
                 "/// first.",
                 "enum LinkedModuleTypes {",
                 "    static let byName: [String: any ModuleProtocol.Type] = [",
                 ] + names + (names.isEmpty ? ["        :"] : []) + [
                 "    ]",
                 ] + members + [
                 "",
                 "    /// `type`, which must be a module type.",
                 "    private static func module<Module: ModuleProtocol>(_ type: Module.Type) -> any ModuleProtocol.Type { type }",
                 "}",
                 ""]).joined(separator: "\n")
    }

    /// `text` as a Swift string literal: a quote and a backslash escaped, and every control, format or line
    /// separator character written as `\u{…}`, so no text of the manifest ends the literal or the line.
    static func quoted(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case _ where needsEscape(scalar):
                literal += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                if scalar == "\\" || scalar == "\"" { literal += "\\" }
                literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// Whether `scalar` is a control, format or line separator character, which a literal writes as `\u{…}`.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
