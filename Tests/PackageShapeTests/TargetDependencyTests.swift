import Testing

/// The package's targets, read from `swift package dump-package`, keep the shape described in `PackageShape`.
@Suite("Target dependencies")
struct TargetDependencyTests {
    private func shape() async throws -> PackageShape {
        PackageShape(try await PackageDump.current.value)
    }

    private func list(_ edges: [String]) -> String {
        edges.map { "  " + $0 }.joined(separator: "\n")
    }

    @Test func packageHasTheHostTheShellAndImplementations() async throws {
        let shape = try await shape()
        #expect(shape.role(of: PackageShape.host) == .host, "no regular target \(PackageShape.host) in dump-package")
        #expect(shape.shell != nil, "no executable target \(PackageShape.shell) in dump-package")
        #expect(!shape.implementations.isEmpty, "no implementation target in dump-package: \(shape.targets.map(\.name))")
    }

    @Test func noImplementationDependsOnAnotherImplementation() async throws {
        let edges = try await shape().implementationToImplementation
        #expect(edges.isEmpty, """
            An implementation target depends on another implementation target; depend on its interface \
            target (an …Interface target holding the service protocols and value types) instead:
            \(list(edges))
            """)
    }

    @Test func implementationsDependOnlyOnHostSystemLibrariesAndInterfaces() async throws {
        let edges = try await shape().implementationOtherDependencies
        #expect(edges.isEmpty, """
            An implementation target may depend on ModuleHost, its libraries (ModuleHostState, ModuleHostRouting), system libraries and interface targets only:
            \(list(edges))
            """)
    }

    @Test func interfacesDependOnlyOnHostAndInterfaces() async throws {
        let edges = try await shape().interfaceViolations
        #expect(edges.isEmpty, """
            An interface target may depend on ModuleHost and other interface targets only:
            \(list(edges))
            """)
    }

    @Test func appShellDependsOnHostAndImplementationsOnly() async throws {
        let problems = try await shape().shellViolations
        #expect(problems.isEmpty, """
            AppShell depends on ModuleHost, its libraries and on implementation targets (so they are linked) only:
            \(list(problems))
            """)
    }

    @Test func machineryDependsOnNoTargetAboveIt() async throws {
        let shape = try await shape()
        for target in PackageShape.machinery.sorted() {
            #expect(shape.role(of: target) == .machinery, "no regular target \(target) in dump-package")
        }
        #expect(shape.machineryViolations.isEmpty, """
            Machinery (\(PackageShape.machinery.sorted().joined(separator: ", "))) may depend on other machinery only, and ModuleHost on machinery only:
            \(list(shape.machineryViolations))
            """)
    }

    @Test func librariesBuiltOnTheHostDependOnItAlone() async throws {
        let shape = try await shape()
        for library in PackageShape.hostLibraries.sorted() {
            #expect(shape.role(of: library) == .hostLibrary, "no regular target \(library) in dump-package")
        }
        #expect(shape.hostLibraryViolations.isEmpty, """
            A library built on ModuleHost (\(PackageShape.hostLibraries.sorted().joined(separator: ", "))) may depend on ModuleHost (and the machinery) only:
            \(list(shape.hostLibraryViolations))
            """)
    }
}
