// swift-tools-version:6.0
// The libFuzzer harness for ModuleHost: a separate root package, so its unsafe flags never reach the
// library's own package. Build and run it with `Fuzz/run.sh` (see Fuzz/README.md).
import PackageDescription

let package = Package(
    name: "ModuleHostFuzz",
    dependencies: [
        .package(name: "ModuleHost", path: ".."),
    ],
    targets: [
        // Declares libFuzzer's `LLVMFuzzerRunDriver` for FuzzTarget's main.
        .target(name: "FuzzDriver"),
        // The fuzzer. The sanitizer flags (`-sanitize=fuzzer,address`) are passed with `-Xswiftc` by run.sh,
        // so that ModuleHost itself is instrumented for coverage and checked by AddressSanitizer too.
        .executableTarget(
            name: "FuzzTarget",
            dependencies: ["FuzzDriver", .product(name: "ModuleHost", package: "ModuleHost"), .product(name: "ModuleHostSeed", package: "ModuleHost")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
