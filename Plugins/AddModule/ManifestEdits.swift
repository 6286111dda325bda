import Foundation

/// The new targets and the host's dependency, written into `Package.swift` as text: after the package's
/// `targets: [`, and at the end of the host's `dependencies: [`. A manifest where either cannot be found is refused, with what to add by hand.
struct PackageManifestEdit {
    let text: String

    func adding(name: String, host: String, source: ModuleHostSource) throws -> String {
        // The package's `targets: [` ends its line; a product's `targets: ["…"]` does not.
        guard let targets = text.range(of: #"targets:\s*\[[ \t]*(?=\n)"#, options: .regularExpression) else {
            throw AddModuleError("Package.swift has no `targets: [` at the end of a line; add the targets by hand (see Adding a module)")
        }
        let indent = String(repeating: " ", count: 8)
        let declarations = [
            #".target(name: "\#(name)Interface", dependencies: [\#(source.library)], plugins: [\#(source.plugin)]),"#,
            #".target(name: "\#(name)Module", dependencies: [\#(source.library), "\#(name)Interface"]),"#,
            #".testTarget(name: "\#(name)ModuleTests", dependencies: ["\#(name)Module", "\#(name)Interface", \#(source.library)]),"#,
        ].map { "\n" + indent + $0 }.joined()
        var edited = text
        edited.insert(contentsOf: declarations, at: targets.upperBound)
        guard let hostName = edited.range(of: #"name: "\#(host)""#),
              let dependencies = edited.range(of: "dependencies: [", range: hostName.upperBound..<edited.endIndex),
              edited.range(of: "name: \"", range: hostName.upperBound..<dependencies.lowerBound) == nil else {
            throw AddModuleError("cannot find the dependencies of the host target \(host) in Package.swift; add \"\(name)Module\" to them by hand")
        }
        guard let close = Self.closingBracket(in: edited, after: dependencies.upperBound) else {
            throw AddModuleError("the host target \(host)'s dependencies do not end in Package.swift; add \"\(name)Module\" to them by hand")
        }
        var last = edited.index(before: close)
        while last > dependencies.lowerBound, edited[last].isWhitespace { last = edited.index(before: last) }
        let isEmpty = edited[last] == "["
        edited.insert(contentsOf: (isEmpty ? "" : ", ") + "\"\(name)Module\"", at: edited.index(after: last))
        return edited
    }

    /// The `]` that closes the array opened just before `start`, skipping nested arrays and strings.
    private static func closingBracket(in text: String, after start: String.Index) -> String.Index? {
        var depth = 0, inString = false, index = start
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" { index = text.index(after: index) } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                if depth == 0 { return index }
                depth -= 1
            }
            if index < text.endIndex { index = text.index(after: index) }
        }
        return nil
    }
}

/// The module's entry, written into `modules.json` as text at the end of its `modules` array, so the rest of the
/// file keeps its form.
enum ModulesManifestEdit {
    static func adding(_ type: String, to text: String) throws -> String {
        guard !text.contains("\"\(type)\"") else { throw AddModuleError("modules.json already names \(type)") }
        let bytes = Array(text.utf8)
        guard let (open, close) = modulesArray(in: bytes) else {
            throw AddModuleError("modules.json has no top-level \"modules\" array; add {\"type\": \"\(type)\"} to it by hand")
        }
        var last = close - 1
        while last > open, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[last]) { last -= 1 }
        let entry = (last == open ? "\n    " : ",\n    ") + "{\"type\": \"\(type)\"}" + (last == open ? "\n  " : "")
        return String(decoding: bytes[...last] + Array(entry.utf8) + bytes[(last + 1)...], as: UTF8.self)
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
