import PackagePlugin

/// Generates ModuleHost's ABI identity into the build, so every build carries the identity of exactly the
/// sources, compiler and target it is compiled from, and nothing committed can be stale.
///
/// It runs `ABIIdentityTool` (Sources/ABIIdentityTool) whenever one of the target's Swift files, one of
/// its companion libraries' (ModuleHostState, ModuleHostRouting), or the compiler changes; the tool writes `ABIIdentity.swift` into this plugin's work
/// folder, which SwiftPM compiles with the target. What the identity covers, and why, is in Sources/ABIIdentityTool/SourceDigest.swift.
@main
struct ABIIdentityGenerator: BuildToolPlugin {
    /// The package's libraries, beside the target itself, whose sources the identity covers.
    static let companionLibraries = ["ModuleHostState", "ModuleHostRouting"]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        // The libraries built on ModuleHost that a plugin may use too (their types cross the plugin boundary), so
        // a change in them is a change of the interface a plugin is compiled against.
        let companions = try context.package.targets(named: Self.companionLibraries).compactMap { $0 as? SourceModuleTarget }
        let sources = ([module] + companions).flatMap { $0.sourceFiles(withSuffix: "swift").map(\.url) }
        let compiler = try context.tool(named: "swiftc").url
        let output = context.pluginWorkDirectoryURL.appending(path: "ABIIdentity.swift")
        return [
            .buildCommand(
                displayName: "Computing the ABI identity of \(target.name)",
                executable: try context.tool(named: "ABIIdentityTool").url,
                arguments: [output.path(percentEncoded: false), compiler.path(percentEncoded: false),
                            module.directoryURL.deletingLastPathComponent().path(percentEncoded: false)] + sources.map { $0.path(percentEncoded: false) },
                inputFiles: sources + [compiler],
                outputFiles: [output]
            ),
        ]
    }
}
