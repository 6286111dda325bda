// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ModuleHost",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ModuleHost", targets: ["ModuleHost"]),
        // State files a module keeps between runs, and the environment a shell gives its modules.
        .library(name: "ModuleHostState", targets: ["ModuleHostState"]),
        // Opening links to the routes modules contribute: the router.
        .library(name: "ModuleHostRouting", targets: ["ModuleHostRouting"]),
        // SwiftyArchitecture's names, for code ported from the seed: ModuleManager.default, modules with init() and
        // moduleDidLoad(with: ModuleManager), ModuleInitiatorProtocol and Initiator's Priority and Operation.
        .library(name: "ModuleHostSeed", targets: ["ModuleHostSeed"]),
        // Test support for apps and modules: injecting stand-in modules and services.
        .library(name: "ModuleHostTesting", targets: ["ModuleHostTesting"]),
        .executable(name: "app-shell", targets: ["AppShell"]),
        // Checks a host's modules.json when the host is built: a module type it names that is not linked is a compile
        // error at that entry.
        .plugin(name: "ManifestCheck", targets: ["ManifestCheck"]),
        // `swift package --allow-writing-to-package-directory add-module <Name>`: a module's targets, its test, the
        // host's dependency and its manifest entry, in one command.
        .plugin(name: "AddModule", targets: ["AddModule"]),
        // Gives a module that plugins may compile against (an app's interface target) its ABI identity.
        .plugin(name: "ABIIdentityGenerator", targets: ["ABIIdentityGenerator"]),
    ],
    targets: [
        // The library: manifest -> registry -> bridge -> initiator.
        // It has no C module in its interface. A plugin compiles against the host's module folder (ModuleHost.swiftmodule, and
        // the machinery modules it imports internally, which a client of a module not built for library evolution loads).
        // Its ABI identity (what a plugin's mark must equal) is computed by every build, from its sources, the
        // compiler and the target: the ABIIdentityGenerator plugin runs ABIIdentityTool, which generates it. Every
        // module a plugin may compile against applies the plugin, and each identity covers its own target's sources.
        .target(
            name: "ModuleHost",
            dependencies: ["ModuleHostJSON", "ModuleHostBinaryImage", "ModuleHostSystemLibraries", "ModuleHostRendering"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))],
            plugins: ["ABIIdentityGenerator"]
        ),
        .plugin(name: "ABIIdentityGenerator", capability: .buildTool(), dependencies: ["ABIIdentityTool"]),
        .executableTarget(name: "ABIIdentityTool", dependencies: ["ModuleHostSystemLibraries"]),
        .plugin(name: "ManifestCheck", capability: .buildTool(), dependencies: ["ManifestCheckTool"]),
        .executableTarget(name: "ManifestCheckTool", dependencies: ["ModuleHostJSON"]),
        // Machinery, not products: targets of their own, each with its contract written down (CONTRACT.md), used by
        // ModuleHost through `internal import` so nothing of theirs is in the interface plugins compile against.
        // The JSON reader: a strict parser that keeps every value's line and column, and the decoder configurations
        // go through. The build check (ManifestCheckTool) reads modules.json with it too: one reader, one answer.
        .target(name: "ModuleHostJSON", exclude: ["CONTRACT.md"]),
        // The plugin-image readers: ELF and Mach-O files read within their bounds, and the Swift runtime's demangler,
        // so the host checks a plugin's file before anything loads it.
        .target(name: "ModuleHostBinaryImage", exclude: ["CONTRACT.md"]),
        // The system's own libraries, loaded at run time so no C module is in an interface: the loader, SHA-256 (libcrypto
        // or CommonCrypto) and hexadecimal text. The host hashes plugin files with it, the build tool ModuleHost's sources.
        .target(name: "ModuleHostSystemLibraries", exclude: ["CONTRACT.md"]),
        // The renderers: aligned text tables, wrapped and coloured text, DOT and Mermaid graphs, Chrome traces. The
        // host maps its reports and plans onto them; the shell lays out its listings with them.
        .target(name: "ModuleHostRendering", exclude: ["CONTRACT.md"]),
        .plugin(
            name: "AddModule",
            capability: .command(
                intent: .custom(verb: "add-module", description: "Add a module: its interface, implementation and test targets, the host's dependency, its manifest entry"),
                permissions: [.writeToPackageDirectory(reason: "add-module writes the module's files, Package.swift and modules.json")]
            )
        ),
        // Test support (as swift-service-lifecycle's TestKit): injection of stand-in modules and services.
        .target(name: "ModuleHostTesting", dependencies: ["ModuleHost"]),
        // Built on the library: state files (StateFile), and what a shell provides its modules (HostEnvironment).
        // Plugins may use its types, so it has an ABI identity of its own.
        .target(name: "ModuleHostState", dependencies: ["ModuleHost", "ModuleHostSystemLibraries"], plugins: ["ABIIdentityGenerator"]),
        // Built on the library: the router, which opens links to the routes modules contribute, and the protocol a
        // module adopts to guard its routes. Plugins may use its types too.
        .target(name: "ModuleHostRouting", dependencies: ["ModuleHost"], plugins: ["ABIIdentityGenerator"]),

        // Built on the library: the seed's names, in one place (see the SeedNames article).
        .target(name: "ModuleHostSeed", dependencies: ["ModuleHost"]),

        // Demo modules, each split as in the seed: an interface target (service protocols, identifiers, value
        // types; depends on ModuleHost only) and an implementation target that depends on ModuleHost (and
        // ModuleHostState, to keep files) and on interface targets only. No implementation depends on another; they meet through the bridge.
        // A plugin may compile against an interface target, so each has an ABI identity (the ABIIdentityGenerator).
        .target(name: "AuthInterface", dependencies: ["ModuleHost"], plugins: ["ABIIdentityGenerator"]),
        .target(name: "AuthModule", dependencies: ["ModuleHost", "ModuleHostState", "ModuleHostRouting", "AuthInterface", "ModuleHostSystemLibraries"]),
        .target(name: "NumbersInterface", dependencies: ["ModuleHost"], plugins: ["ABIIdentityGenerator"]),
        .target(name: "NumbersModule", dependencies: ["ModuleHost", "ModuleHostState", "ModuleHostRouting", "NumbersInterface"]),
        // The worked example of adding a module (README, "Adding a module").
        .target(name: "ClockInterface", dependencies: ["ModuleHost"], plugins: ["ABIIdentityGenerator"]),
        .target(name: "ClockModule", dependencies: ["ModuleHost", "ClockInterface"]),

        // The shell executable that hosts the modules listed in modules.json. It imports ModuleHost and
        // ModuleHostState (to give modules their state folder) only: it
        // depends on the implementations just so they are linked in and found by name, and every
        // command beyond its own comes from the module that declares it.
        // Plugins link against the ModuleHost symbols this executable exports (see README, "Plugins").
        .executableTarget(
            name: "AppShell",
            dependencies: ["ModuleHost", "ModuleHostState", "ModuleHostRouting", "ModuleHostSystemLibraries", "ModuleHostRendering", "AuthModule", "NumbersModule", "ClockModule"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))],
            // modules.json is checked by the build: only the generated list names the modules, because it does.
            plugins: ["ManifestCheck"]
        ),

        // What this package's own tests share (a seeded generator, temporary folders); not a product.
        // What the test targets share, the app-shell suites of both lanes included (running the built app-shell, a
        // pseudo-terminal, the plugin build).
        .target(name: "TestSupport", dependencies: ["ModuleHost"], path: "Tests/TestSupport"),
        .testTarget(name: "ModuleHostTests", dependencies: ["ModuleHost", "ModuleHostJSON", "ModuleHostBinaryImage", "ModuleHostSystemLibraries", "ModuleHostSeed", "ModuleHostTesting", "TestSupport"]),
        .testTarget(name: "ModuleHostJSONTests", dependencies: ["ModuleHostJSON"]),
        .testTarget(name: "ModuleHostRenderingTests", dependencies: ["ModuleHostRendering"]),
        .testTarget(name: "ModuleHostRoutingTests", dependencies: ["ModuleHostRouting", "ModuleHost", "ModuleHostTesting", "TestSupport"]),
        .testTarget(name: "ModuleHostSeedTests", dependencies: ["ModuleHostSeed", "ModuleHost"]),
        .testTarget(name: "ModuleHostStateTests", dependencies: ["ModuleHostState", "ModuleHost", "TestSupport"]),
        .testTarget(name: "AuthModuleTests", dependencies: ["AuthModule", "ModuleHostSystemLibraries", "AuthInterface", "ModuleHost", "ModuleHostState", "ModuleHostTesting"]),
        .testTarget(name: "NumbersModuleTests", dependencies: ["NumbersModule", "NumbersInterface", "ModuleHost", "ModuleHostState", "ModuleHostTesting", "TestSupport"]),
        .testTarget(name: "AppShellTests", dependencies: ["AppShell", "ModuleHostTesting", "TestSupport"]),
        // The slow lane: suites that build packages (a copy of this one, plugins against another host) or run
        // hundreds of terminal trials. `swift test --skip AppShellSlowTests` is the fast lane; PackageShapeTests'
        // TestLaneTests fails when a suite outside this target builds a package.
        .testTarget(name: "AppShellSlowTests", dependencies: ["AppShell", "ModuleHostTesting", "TestSupport"]),
        // Holds the package's shape: which targets may depend on and import which (reads dump-package and the sources).
        .testTarget(name: "PackageShapeTests", dependencies: ["ModuleHostTesting", "ModuleHostSeed"]),
    ],
    swiftLanguageModes: [.v6]
)
