import Foundation
import Testing

/// Small units: no file of a library, the shell or a demo module is longer than 250 lines, and no function,
/// initializer or accessor body in it longer than 60, so each can be read at once. Tests are held to the file limit
/// too (every Swift file under Tests/), though not to the body limit. The build enforces it here, not a reviewer.
@Suite("Source sizes")
struct SourceSizeTests {
    /// Every target's folder: everything under Sources/ and Plugins/, so a target added
    /// (a module an app adds among them) is held to the rules without being listed anywhere.
    static let folders: [String] = ["Sources", "Plugins"].flatMap { parent in
        ((try? FileManager.default.contentsOfDirectory(atPath: PackageDump.root.appendingPathComponent(parent).path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted().map { "\(parent)/\($0)" }
    }
    /// Files allowed past the file limit, each with its reason.
    static let longFiles = [
        "Sources/AuthModule/Implementation/Authenticator.swift":
            "one lock's state machine: its private state is touched only with the lock held, and splitting the file "
            + "would make that state visible to the whole module",
    ]
    static let maximumFileLines = 250
    static let maximumBodyLines = 60

    /// The number of lines of `text`, as `wc -l` counts them: its newlines.
    static func lineCount(_ text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    }

    private func sources() throws -> [(path: String, text: String)] {
        try Self.folders.flatMap { folder in
            try SwiftSource.files(under: folder, root: PackageDump.root).map { file in
                (file, try String(contentsOf: PackageDump.root.appendingPathComponent(file), encoding: .utf8))
            }
        }
    }

    /// The scan sees the library, the shell, the tools and the demo modules; every exception is still needed.
    @Test func everyTargetFolderIsCheckedAndEveryExceptionIsNeeded() throws {
        for folder in ["Sources/ModuleHost", "Sources/AppShell", "Sources/AuthModule", "Sources/ClockInterface", "Plugins/ManifestCheck"] {
            #expect(Self.folders.contains(folder), "\(folder) is not checked: \(Self.folders)")
        }
        for (path, _) in Self.longFiles {
            let text = try String(contentsOf: PackageDump.root.appendingPathComponent(path), encoding: .utf8)
            #expect(Self.lineCount(text) > Self.maximumFileLines, "\(path) fits now: drop its exception")
        }
    }

    @Test func noFileIsLongerThan250Lines() throws {
        let files = try sources()
        #expect(files.count > 150, "the scan found only \(files.count) files")
        let long = files.map { ($0.path, Self.lineCount($0.text)) }
            .filter { $0.1 > Self.maximumFileLines && Self.longFiles[$0.0] == nil }
        #expect(long.isEmpty, "split these files (at most \(Self.maximumFileLines) lines): \(long.map { "\($0.0): \($0.1)" })")
    }

    /// Every Swift file under Tests/ is held to the same file limit, with no exceptions (and to no body limit).
    @Test func noTestFileIsLongerThan250Lines() throws {
        let files = try SwiftSource.files(under: "Tests", root: PackageDump.root)
        #expect(files.count > 100, "the scan found only \(files.count) test files")
        let long = try files.map { file in
            (file, Self.lineCount(try String(contentsOf: PackageDump.root.appendingPathComponent(file), encoding: .utf8)))
        }.filter { $0.1 > Self.maximumFileLines }
        #expect(long.isEmpty, "split these test files (at most \(Self.maximumFileLines) lines): \(long.map { "\($0.0): \($0.1)" })")
    }

    @Test func noFunctionIsLongerThan60Lines() throws {
        var long: [String] = []
        var measured = 0
        for file in try sources() {
            let bodies = Self.bodies(in: SwiftSource.code(file.text))
            measured += bodies.count
            for body in bodies where body.lines > Self.maximumBodyLines {
                long.append("\(file.path):\(body.line) (\(body.lines) lines)")
            }
        }
        #expect(measured > 1_000, "the scan measured only \(measured) bodies")
        #expect(long.isEmpty, "shorten these bodies (at most \(Self.maximumBodyLines) lines): \(long)")
    }

    /// The check sees a long body, and only bodies: a type's braces are not a function's.
    @Test func theCheckMeasuresFunctionBodies() {
        let long = "func f() {\n" + String(repeating: "    x()\n", count: 61) + "}\n"
        #expect(Self.bodies(in: long).map(\.lines) == [61])
        let type = "struct S {\n    var v: Int\n    struct T {\n" + String(repeating: "    let x = 1\n", count: 70) + "    init() {\n        a()\n    }\n}\n}\n"
        #expect(Self.bodies(in: type).map(\.lines) == [1])
        #expect(Self.bodies(in: "var v: Int {\n    get { 1 }\n}\n").map(\.lines) == [0, 1])
        let signature = "func g(\n    a: Int = 0\n) -> Int {\n    let b = [1].map { $0 }\n    return a\n}\n"
        #expect(Self.bodies(in: signature).map(\.lines) == [2], "a signature over several lines, a closure inside")
    }

    /// The bodies of the functions, initializers, subscripts, accessors and computed properties in `code`
    /// (comments and strings removed): the line each opens on, and how many lines lie between its braces.
    ///
    /// A brace opens a body when the last keyword since the previous brace or `;` declares one (`func`, `init`,
    /// an accessor, or `var` with no `=` after it: a computed property); after `struct`, `if`, `let`… it opens
    /// something else. Closures count as part of the body they are in.
    static func bodies(in code: String) -> [(line: Int, lines: Int)] {
        let keyword = #/\b(?<word>func|init|deinit|subscript|get|set|willSet|didSet|var|let|struct|class|enum|protocol|extension|actor|if|for|while|switch|guard|else|do|catch|repeat|defer|case|return)\b/#
        let bodyWords: Set<Substring> = ["func", "init", "deinit", "subscript", "get", "set", "willSet", "didSet"]
        func opensBody(_ text: String) -> Bool {
            guard let last = text.matches(of: keyword).last else { return false }
            if bodyWords.contains(last.output.word) { return true }
            return last.output.word == "var" && !text[last.range.upperBound...].contains("=")
        }
        var open: [(line: Int, isBody: Bool)] = []
        var found: [(line: Int, lines: Int)] = []
        var line = 1
        var current = ""
        for character in code {
            switch character {
            case "{":
                open.append((line, opensBody(current)))
                current = ""
            case "}":
                if let top = open.popLast(), top.isBody { found.append((top.line, max(0, line - top.line - 1))) }
                current = ""
            case ";":
                current = ""
            default:
                if character == "\n" { line += 1 }
                current.append(character)
            }
        }
        return found
    }
}
