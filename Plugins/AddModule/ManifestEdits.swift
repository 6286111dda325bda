import Foundation

/// The new targets and the host's dependency, written into `Package.swift` as text: at the end of the
/// `Package(…)` call's own `targets: [` (not a product's), and at the end of the host target's own `dependencies: [`,
/// both found by reading the code (strings and comments skipped, brackets matched). A manifest where either cannot
/// be found is refused, with what to add by hand.
struct PackageManifestEdit {
    let text: String

    func adding(name: String, host: String, source: ModuleHostSource, keepsState: Bool) throws -> String {
        let code = try SwiftCode(text)
        guard let package = code.call(matching: #"\bPackage\s*\("#), let targets = code.argumentArray("targets", ofCallOpenedAt: package) else {
            throw AddModuleError("Package.swift has no `targets: [` in its `Package(…)`; add the targets by hand (see Adding a module)")
        }
        let hostPattern = #"\.(executableTarget|target)\s*\(\s*name:\s*""# + NSRegularExpression.escapedPattern(for: host) + #"""#
        guard let hostCall = code.call(matching: hostPattern), let dependencies = code.argumentArray("dependencies", ofCallOpenedAt: hostCall) else {
            throw AddModuleError("cannot find the dependencies of the host target \(host) in Package.swift; add \"\(name)Module\" to them by hand")
        }
        let indent = String(repeating: " ", count: 8)
        let declarations = [
            #".target(name: "\#(name)Interface", dependencies: [\#(source.library)], plugins: [\#(source.plugin)]),"#,
            #".target(name: "\#(name)Module", dependencies: [\#(source.library), "\#(name)Interface"\#(keepsState ? ", " + source.state : "")]),"#,
            #".testTarget(name: "\#(name)ModuleTests", dependencies: ["\#(name)Module", "\#(name)Interface", \#(source.library)]),"#,
        ].map { indent + $0 + "\n" }.joined()
        // The dependency goes right after the list's last element (comments and whitespace skipped), with a comma
        // unless that element already ends with one.
        var last = dependencies.close - 1
        while last > dependencies.open, !code.isCode[last] || code.characters[last].isWhitespace { last -= 1 }
        let quoted = "\"\(name)Module\""
        let dependency = last == dependencies.open ? quoted : code.characters[last] == "," ? " \(quoted)," : ", \(quoted)"
        // The targets go last, on lines of their own before the `]` (after any comment the list ends with), with a
        // comma after the list's last element if it has none.
        var lastTarget = targets.close - 1
        while lastTarget > targets.open, !code.isCode[lastTarget] || code.characters[lastTarget].isWhitespace { lastTarget -= 1 }
        var lineStart = targets.close
        while lineStart > targets.open + 1, code.characters[lineStart - 1] == " " || code.characters[lineStart - 1] == "\t" { lineStart -= 1 }
        let ownLine = code.characters[lineStart - 1].isNewline
        let insertion = ownLine ? lineStart : targets.close
        let needsComma = lastTarget > targets.open && code.characters[lastTarget] != ","
        var edits = [(last + 1, dependency)]
        if needsComma, lastTarget + 1 == insertion {
            edits.append((insertion, ",\n" + declarations))
        } else {
            edits.append((insertion, (ownLine ? "" : "\n") + declarations))
            if needsComma { edits.append((lastTarget + 1, ",")) }
        }
        // The later insertion first, so the earlier offsets still hold.
        var characters = code.characters
        for (offset, insertion) in edits.sorted(by: { $0.0 > $1.0 }) { characters.insert(contentsOf: insertion.unicodeScalars, at: offset) }
        return String(String.UnicodeScalarView(characters))
    }
}

/// The module's entry, written into `modules.json` as text at the end of its `modules` array, so the rest of the
/// file keeps its form.
enum ModulesManifestEdit {
    /// `bytes` (the file, kept byte for byte) with the entry added.
    static func adding(_ type: String, to bytes: [UInt8]) throws -> [UInt8] {
        guard String(decoding: bytes, as: UTF8.self).range(of: "\"\(type)\"") == nil else { throw AddModuleError("modules.json already names \(type)") }
        guard let (open, close) = modulesArray(in: bytes) else {
            throw AddModuleError("modules.json has no top-level \"modules\" array; add {\"type\": \"\(type)\"} to it by hand")
        }
        var last = close - 1
        while last > open, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[last]) { last -= 1 }
        let entry = (last == open ? "\n    " : ",\n    ") + "{\"type\": \"\(type)\"}" + (last == open ? "\n  " : "")
        return Array(bytes[...last]) + Array(entry.utf8) + Array(bytes[(last + 1)...])
    }

    /// The offsets of the `[` and `]` of the root object's `modules` array.
    private static func modulesArray(in bytes: [UInt8]) -> (Int, Int)? {
        var depth = 0, index = 0, key: [UInt8] = [], open: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                key = depth == 1 ? Array(bytes[(index + 1)..<min(end, bytes.count)]) : []
                index = end + 1
                continue
            }
            switch byte {
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "["):
                if depth == 1, open == nil, key == Array("modules".utf8) { open = index }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 1, let start = open, byte == UInt8(ascii: "]") { return (start, index) }
            case UInt8(ascii: ","): key = []
            default: break
            }
            index += 1
        }
        return nil
    }
}
