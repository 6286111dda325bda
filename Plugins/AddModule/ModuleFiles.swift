import PackagePlugin

/// How the new targets name ModuleHost and its ABI-identity plugin: as targets of this package (ModuleHost's own
/// repository), or as products of the package dependency that provides them.
struct ModuleHostSource {
    let library: String
    let plugin: String
    /// ModuleHostState, for a module that keeps files (`--state`).
    let state: String

    init(package: Package) {
        if package.targets.contains(where: { $0.name == "ModuleHost" }) {
            library = #""ModuleHost""#
            plugin = #""ABIIdentityGenerator""#
            state = #""ModuleHostState""#
        } else {
            let id = package.dependencies.first { $0.package.products.contains { $0.name == "ModuleHost" } }?.package.id ?? "modulehost"
            library = #".product(name: "ModuleHost", package: "\#(id)")"#
            plugin = #".plugin(name: "ABIIdentityGenerator", package: "\#(id)")"#
            state = #".product(name: "ModuleHostState", package: "\#(id)")"#
        }
    }
}

/// The starting files of a new module: a service protocol and identifier, a module that provides the service, and
/// a test that resolves it.
struct ModuleFiles {
    let name: String
    let identifier: String

    var all: [(path: String, text: String)] {
        [("Sources/\(name)Interface/\(name)Service.swift", interface),
         ("Sources/\(name)Module/\(name)Module.swift", module),
         ("Tests/\(name)ModuleTests/\(name)ModuleTests.swift", test)]
    }

    /// The identifier's member name, in backticks: `Class` gives `` `class` ``, which is a keyword bare.
    private var member: String { "`" + name.prefix(1).lowercased() + name.dropFirst() + "`" }

    private var interface: String {
        """
        import ModuleHost

        /// What other modules may use of the \(name) module: they depend on this target only, and resolve the
        /// service through the bridge (`try context.bridge.resolve(\(name)Service.self)`).
        public protocol \(name)Service: Sendable {
            /// The module's name: a placeholder for the service's real work.
            func name() -> String
        }

        extension ModuleIdentifier {
            /// The \(name) module's identifier.
            public static let \(member): ModuleIdentifier = "\(identifier)"
        }

        """
    }

    private var module: String {
        """
        import ModuleHost
        import \(name)Interface

        /// The \(name) module: it provides ``\(name)Service``. Found by name through modules.json; nothing imports it.
        public final class \(name)Module: ModuleProtocol, \(name)Service {
            public static let moduleIdentifier: ModuleIdentifier = .\(member)
            public static let providedServices: [ProvidedService] = [.service(\(name)Service.self, from: \(name)Module.self) { $0 }]

            public init(context: any ModuleContext) {}

            public func name() -> String { "\(name)" }
        }

        """
    }

    private var test: String {
        """
        import ModuleHost
        import \(name)Interface
        import \(name)Module
        import Testing

        @Suite("\(name) module")
        struct \(name)ModuleTests {
            @Test func theModuleProvidesItsService() throws {
                let manager = ModuleManager()
                try manager.register(\(name)Module.self)
                #expect(try manager.bridge.resolve(\(name)Service.self).name() == "\(name)")
            }
        }

        """
    }
}
