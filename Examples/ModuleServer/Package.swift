// swift-tools-version:6.1
import PackageDescription

// A small HTTP server whose routes come from modules: the proof that ModuleHost's integrations compose, and a
// template to copy. Hummingbird 2 serves, swift-service-lifecycle starts and stops, swift-log logs.
let package = Package(
    name: "ModuleServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "module-server", targets: ["ModuleServer"]),
    ],
    dependencies: [
        .package(name: "ModuleHost", path: "../.."),
        .package(name: "ModuleHostServiceLifecycle", path: "../../Integrations/ModuleHostServiceLifecycle"),
        .package(name: "ModuleHostLogging", path: "../../Integrations/ModuleHostLogging"),
        // No optional traits: swift-configuration support is not needed here and only lengthens the build.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // The service protocol a module implements to contribute routes (depends on ModuleHost and Hummingbird).
        .target(
            name: "ServerInterface",
            dependencies: [
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // Modules that contribute routes; they meet only through the bridge and ServerInterface.
        .target(
            name: "GreetingModule",
            dependencies: [
                "ServerInterface",
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StatusModule",
            dependencies: [
                "ServerInterface",
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The server: reads modules.json, builds the router from the modules, runs everything in a ServiceGroup.
        .executableTarget(
            name: "ModuleServer",
            dependencies: [
                "ServerInterface", "GreetingModule", "StatusModule",
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "ModuleHostState", package: "ModuleHost"),
                .product(name: "ModuleHostServiceLifecycle", package: "ModuleHostServiceLifecycle"),
                .product(name: "ModuleHostLogging", package: "ModuleHostLogging"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ModuleServerTests",
            dependencies: [
                "ModuleServer", "ServerInterface", "GreetingModule", "StatusModule",
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "ModuleHostServiceLifecycle", package: "ModuleHostServiceLifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
