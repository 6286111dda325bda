// swift-tools-version:6.0
import PackageDescription

// Routes ModuleHost's notices, Initiator events and teardown records into a swift-log `Logger`. A package of
// its own, so the product's Package.swift stays free of packages.
let package = Package(
    name: "ModuleHostLogging",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ModuleHostLogging", targets: ["ModuleHostLogging"]),
    ],
    dependencies: [
        .package(name: "ModuleHost", path: "../.."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "ModuleHostLogging",
            dependencies: [
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "ModuleHostState", package: "ModuleHost"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ModuleHostLoggingTests",
            dependencies: [
                "ModuleHostLogging",
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "ModuleHostState", package: "ModuleHost"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
