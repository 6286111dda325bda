// swift-tools-version:6.0
import PackageDescription

// A ModuleHost plugin: a module built outside the app, into a shared library that app-shell loads at run
// time. It must not embed its own copy of ModuleHost or of its libraries (Swift matches protocol conformances by
// the identity of their metadata), so it compiles against the host's interfaces (ModuleHost, and ModuleHostRouting
// for its route) and links against nothing: those symbols are resolved, when app-shell loads it, from the ones
// app-shell exports.
// Build it with ./build.sh, which passes the host's module folder in MODULEHOST_MODULES.
let hostModules = Context.environment["MODULEHOST_MODULES"] ?? "../../.build/debug/Modules"

#if os(macOS)
let unresolvedSymbols: [String] = ["-Xlinker", "-undefined", "-Xlinker", "dynamic_lookup"]
#else
let unresolvedSymbols: [String] = []  // ELF shared libraries may leave symbols for the loader to resolve.
#endif

let package = Package(
    name: "GreeterPlugin",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GreeterPlugin", type: .dynamic, targets: ["GreeterPlugin"]),
    ],
    targets: [
        .target(
            name: "GreeterPlugin",
            swiftSettings: [.unsafeFlags(["-I", hostModules])],
            linkerSettings: [.unsafeFlags(unresolvedSymbols)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
