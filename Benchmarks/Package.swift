// swift-tools-version:6.0
import PackageDescription

// The ModuleHost benchmarks: a package of its own, so the product's Package.swift stays free of packages.
//
//     swift run -c release --package-path Benchmarks modulehost-bench
//
// Every figure it prints is a ratio against a baseline measured in the same run; see README.md.
let package = Package(
    name: "ModuleHostBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "modulehost-bench", targets: ["ModuleHostBench"]),
        .executable(name: "hello", targets: ["Hello"]),
        .executable(name: "hello-foundation", targets: ["HelloFoundation"]),
        .executable(name: "hello-essentials", targets: ["HelloEssentials"]),
        .executable(name: "hello-manifest", targets: ["HelloManifest"]),
        .executable(name: "peak-memory", targets: ["PeakMemory"]),
        .executable(name: "large-app-child", targets: ["LargeAppChild"]),
        .executable(name: "shared-app-child", targets: ["SharedAppChild"]),
    ],
    dependencies: [
        .package(name: "ModuleHost", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject.git", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        // The harness and every benchmark. It depends on the hello executables only so that
        // `swift run modulehost-bench` builds them too (the shell benchmark launches them).
        .executableTarget(
            name: "ModuleHostBench",
            dependencies: [
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                "Hello",
                "HelloFoundation",
                "HelloEssentials",
                "HelloManifest",
                "PeakMemory",
                "LargeAppHarness",
                "LargeApp",
                "LargeAppChild",
                "SharedAppChild",
                "SeededRandom",
            ]
        ),
        // The shell benchmark's baseline: the smallest Swift program, built the same way as app-shell.
        .executableTarget(name: "Hello"),
        // Context for the shell benchmark: the same program with the whole of Foundation loaded.
        .executableTarget(name: "HelloFoundation"),
        // The shell benchmark's baseline: the same program with FoundationEssentials loaded, as app-shell has it.
        .executableTarget(name: "HelloEssentials"),
        // The shell benchmark's floor: app-shell modules' work written by hand (modules.json decoded into typed
        // configurations and listed), with nothing looked up by name.
        .executableTarget(name: "HelloManifest"),
        // The large benchmark's app: 1,000 module types, generated when it builds (nothing generated is committed).
        .target(name: "LargeApp", dependencies: [.product(name: "ModuleHost", package: "ModuleHost")],
                plugins: ["LargeAppSources"]),
        // The same 1,000 modules sharing one configuration type, as many apps share one settings type.
        .target(name: "SharedConfigApp", dependencies: [.product(name: "ModuleHost", package: "ModuleHost")],
                plugins: ["LargeAppSources"]),
        // Writes the large apps' sources (and, by hand, their manifests in LargeApp/); seeded, so always the same.
        .executableTarget(name: "LargeAppGenerator", dependencies: ["SeededRandom"]),
        // The seeded random numbers the benchmarks and the generator share.
        .target(name: "SeededRandom"),
        .plugin(name: "LargeAppSources", capability: .buildTool(), dependencies: ["LargeAppGenerator"]),
        // Registering and starting the large app, and decoding its manifest with JSONDecoder: the measured programs.
        .target(name: "LargeAppHarness", dependencies: [.product(name: "ModuleHost", package: "ModuleHost")]),
        // The large benchmarks' first-use measurements, each in a fresh process holding what its app holds.
        .executableTarget(name: "LargeAppChild", dependencies: ["LargeAppHarness", "LargeApp"]),
        .executableTarget(name: "SharedAppChild", dependencies: ["LargeAppHarness", "SharedConfigApp"]),
        // Measures a program's peak memory from a process smaller than the program (see its main.swift).
        .executableTarget(name: "PeakMemory"),
    ],
    swiftLanguageModes: [.v6]
)
