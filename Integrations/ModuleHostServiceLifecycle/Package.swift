// swift-tools-version:6.0
import PackageDescription

// Runs a ModuleHost `ModuleManager` as a swift-service-lifecycle `Service`. A package of its own, so the
// product's Package.swift stays free of packages.
let package = Package(
    name: "ModuleHostServiceLifecycle",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ModuleHostServiceLifecycle", targets: ["ModuleHostServiceLifecycle"]),
    ],
    dependencies: [
        .package(name: "ModuleHost", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "ModuleHostServiceLifecycle",
            dependencies: [
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ModuleHostServiceLifecycleTests",
            dependencies: [
                "ModuleHostServiceLifecycle",
                .product(name: "ModuleHost", package: "ModuleHost"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
