import Foundation
import Testing

/// The decoding of dump-package and the shape rules, on made-up packages, so each rule is seen to fail.
@Suite("Shape rules")
struct ShapeRuleTests {
    /// A dump-package document with `targets`, each `(name, type, [dependency JSON])`.
    private func dump(_ targets: [(String, String, [String])]) throws -> PackageDump {
        let items = targets.map { name, type, dependencies in
            #"{"name": "\#(name)", "type": "\#(type)", "path": null, "dependencies": [\#(dependencies.joined(separator: ", "))]}"#
        }
        let json = #"{"name": "ModuleHost", "targets": [\#(items.joined(separator: ", "))]}"#
        return try JSONDecoder().decode(PackageDump.self, from: Data(json.utf8))
    }

    private func byName(_ name: String) -> String { #"{"byName": ["\#(name)", null]}"# }

    /// The intended shape: interfaces, implementations that use them, and a shell that links the implementations.
    private var newShape: [(String, String, [String])] {
        [
            ("ModuleHost", "regular", []),
            ("CCrypt", "system", []),
            ("AuthInterface", "regular", [byName("ModuleHost")]),
            ("NumbersInterface", "regular", [byName("ModuleHost")]),
            ("AuthModule", "regular", [byName("ModuleHost"), byName("AuthInterface"), byName("CCrypt")]),
            ("NumbersModule", "regular", [byName("ModuleHost"), byName("NumbersInterface"), byName("AuthInterface")]),
            ("AppShell", "executable", [byName("ModuleHost"), byName("AuthModule"), byName("NumbersModule")]),
            ("NumbersModuleTests", "test", [byName("NumbersModule"), byName("ModuleHost")]),
        ]
    }

    @Test func decodesEveryDependencyEncoding() throws {
        let package = try dump([("B", "regular", [
            #"{"byName": ["A", {"platformNames": ["linux"]}]}"#,
            #"{"target": ["A", null]}"#,
            #"{"product": ["X", "x", {"X": "Y"}, null]}"#,
        ])])
        let dependencies = try #require(package.targets.first).dependencies
        #expect(dependencies.map(\.kind) == [.byName, .target, .product])
        #expect(dependencies.map(\.name) == ["A", "A", "X"])
        #expect(dependencies.map(\.package) == [nil, nil, "x"])
        #expect(throws: DecodingError.self, "an unknown encoding is an error, not an ignored dependency") {
            try dump([("B", "regular", [#"{"registry": ["A", null]}"#])])
        }
    }

    @Test func theNewShapeAndAModuleAddedTheReadmeWayKeepEveryRule() throws {
        var targets = newShape
        targets.insert(("ClockInterface", "regular", [byName("ModuleHost")]), at: 2)
        targets.insert(("ClockModule", "regular", [byName("ModuleHost"), #"{"target": ["ClockInterface", null]}"#]), at: 3)
        targets.insert(("WeatherModule", "regular", [byName("ModuleHost")]), at: 3)  // no interface of its own
        targets[targets.firstIndex { $0.0 == "AppShell" }!].2 += [byName("ClockModule"), byName("WeatherModule")]
        let shape = PackageShape(try dump(targets))
        #expect(shape.interfaces == ["ClockInterface", "AuthInterface", "NumbersInterface"])
        #expect(shape.implementations == ["WeatherModule", "ClockModule", "AuthModule", "NumbersModule"])
        #expect(shape.implementationToImplementation.isEmpty)
        #expect(shape.implementationOtherDependencies.isEmpty)
        #expect(shape.interfaceViolations.isEmpty)
        #expect(shape.shellViolations.isEmpty)
    }

    @Test func everyBrokenRuleIsReportedWithItsEdge() throws {
        let shape = PackageShape(try dump([
            ("ModuleHost", "regular", []),
            ("CCrypt", "system", []),
            ("AuthInterface", "regular", [byName("ModuleHost"), byName("AuthModule"), byName("CCrypt")]),
            ("AuthModule", "regular", [byName("ModuleHost"), byName("CCrypt")]),
            ("NumbersModule", "regular", [byName("ModuleHost"), #"{"target": ["AuthModule", null]}"#,
                                          #"{"product": ["Collections", "swift-collections", null, null]}"#]),
            ("AppShell", "executable", [byName("AuthModule"), byName("AuthInterface")]),
        ]))
        #expect(shape.implementationToImplementation == ["NumbersModule → AuthModule (implementation target)"])
        #expect(shape.implementationOtherDependencies
                == ["NumbersModule → product Collections of package swift-collections (not a target of this package)"])
        #expect(shape.interfaceViolations
                == ["AuthInterface → AuthModule (implementation target)", "AuthInterface → CCrypt (system library)"])
        #expect(shape.shellViolations
                == ["AppShell → AuthInterface (interface target)", "AppShell does not depend on ModuleHost"])
    }

    @Test func aMissingShellIsReported() throws {
        let shape = PackageShape(try dump([("ModuleHost", "regular", []), ("AppShell", "regular", [byName("ModuleHost")])]))
        #expect(shape.shellViolations == ["there is no executable target AppShell"])
    }
}
