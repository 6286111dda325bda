import Testing

@Suite("Import scan")
struct SwiftSourceTests {
    private func modules(_ source: String) -> [String] {
        SwiftSource.imports(in: source, file: "F.swift").map(\.module)
    }

    @Test(arguments: [
        "import AuthModule",
        "    import AuthModule",
        "@testable import AuthModule",
        "@_exported import AuthModule",
        "@preconcurrency import AuthModule",
        "@_implementationOnly import AuthModule",
        "@_spi(Testing) import AuthModule",
        "@testable\nimport AuthModule",
        "internal import AuthModule",
        "public import AuthModule",
        "package import AuthModule",
        "private import AuthModule",
        "fileprivate import AuthModule",
        "import struct AuthModule.AuthConfiguration",
        "import func AuthModule.hash",
        "@preconcurrency internal import protocol AuthModule.AuthService",
        "import Foundation; import AuthModule",
        "#if canImport(AuthModule)\nimport AuthModule\n#endif",
    ])
    func everyFormOfImportIsFound(source: String) {
        #expect(modules(source).contains("AuthModule"), "in \(source.debugDescription)")
    }

    @Test(arguments: [
        "// import AuthModule",
        "/// import AuthModule",
        "/* import AuthModule */",
        "/* /* nested */\nimport AuthModule */",
        #"let s = "import AuthModule""#,
        "let s = \"\"\"\n    import AuthModule\n    \"\"\"",
        "let s = #\"\"\"\n    \"\"\"\nimport AuthModule\n    \"\"\"#",
        ##"let s = "\(f("a")); import AuthModule""##,
        ##"let s = #"\(x)"; import AuthModule"#"##,
        "let importer = AuthModule()",
        "reimport AuthModule",
    ])
    func commentsStringsAndLookAlikesAreNotImports(source: String) {
        #expect(!modules(source).contains("AuthModule"), "in \(source.debugDescription)")
    }

    @Test func importsKeepTheirLineNumbers() {
        let source = "import A\n/* two\n three */\nlet s = \"\"\"\n five\n \"\"\"\n@testable\nimport B"
        #expect(SwiftSource.imports(in: source, file: "F.swift").map(\.description) == ["F.swift:1 imports A", "F.swift:8 imports B"])
    }

    @Test func codeKeepsCodeAndDropsCommentsAndLiteralContents() {
        #expect(SwiftSource.code(#"let a = "x\(b("y"))z" // c"#) == #"let a = "" "#)
        #expect(SwiftSource.code("f(/* x */1)\n") == "f( 1)\n")
        #expect(SwiftSource.code(##"let r = #"\d"#, q = "\"""##) == #"let r = "", q = """#)
    }
}
