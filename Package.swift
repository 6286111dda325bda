// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ModuleHost",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ModuleHost", targets: ["ModuleHost"]),
        .executable(name: "app-shell", targets: ["AppShell"]),
    ],
    targets: [
        // The library: manifest -> registry -> bridge -> initiator.
        // It has no C module in its interface, so plugins compile against it with nothing but its .swiftmodule.
        .target(name: "ModuleHost", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),

        // The C library's crypt(3) (libxcrypt on Linux), used by AuthModule for password hashes.
        .systemLibrary(name: "CCrypt", path: "Sources/CCrypt"),

        // Demo modules. They talk to each other only through service protocols and the bridge.
        .target(name: "AuthModule", dependencies: ["ModuleHost", "CCrypt"]),
        .target(name: "NumbersModule", dependencies: ["ModuleHost", "AuthModule"]),
        // The worked example of adding a module: linked into the shell, listed in modules.json, never imported.
        .target(name: "ClockModule", dependencies: ["ModuleHost"]),

        // The shell executable that hosts the modules listed in modules.json.
        // Plugins link against the ModuleHost symbols this executable exports (see README, "Plugins").
        .executableTarget(
            name: "AppShell",
            dependencies: ["ModuleHost", "AuthModule", "NumbersModule", "ClockModule"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]
        ),

        .testTarget(name: "ModuleHostTests", dependencies: ["ModuleHost"]),
        .testTarget(name: "AuthModuleTests", dependencies: ["AuthModule", "ModuleHost"]),
        .testTarget(name: "NumbersModuleTests", dependencies: ["NumbersModule", "ModuleHost"]),
        .testTarget(name: "AppShellTests", dependencies: ["AppShell"]),
        // Holds the package's shape: which targets may depend on and import which (reads dump-package and the sources).
        .testTarget(name: "PackageShapeTests"),
    ],
    swiftLanguageModes: [.v6]
)
