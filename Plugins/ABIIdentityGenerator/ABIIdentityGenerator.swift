import PackagePlugin

/// Generates a target's ABI identity into its build, so every build carries the identity of exactly the sources
/// (and, for ModuleHost, the compiler and target) it is compiled from, and nothing committed can be stale.
///
/// Every module a plugin may compile against applies it: ModuleHost, the libraries built on it and each interface
/// target. It runs `ABIIdentityTool` (Sources/ABIIdentityTool) whenever one of the target's own Swift files or the
/// compiler changes; the tool writes `ABIIdentity.swift` into this plugin's work folder, which SwiftPM compiles
/// with the target. A target's identity reads no other target's sources, so an edit in one library rebuilds only
/// what depends on it. What the identity covers, and why, is in Sources/ABIIdentityTool/SourceDigest.swift.
@main
struct ABIIdentityGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let sources = module.sourceFiles(withSuffix: "swift").map(\.url)
        let compiler = try context.tool(named: "swiftc").url
        let output = context.pluginWorkDirectoryURL.appending(path: "ABIIdentity.swift")
        return [
            .buildCommand(
                displayName: "Computing the ABI identity of \(target.name)",
                executable: try context.tool(named: "ABIIdentityTool").url,
                arguments: [output.path(percentEncoded: false), compiler.path(percentEncoded: false), module.moduleName,
                            module.directoryURL.deletingLastPathComponent().path(percentEncoded: false)]
                    + sources.map { $0.path(percentEncoded: false) },
                inputFiles: sources + [compiler],
                outputFiles: [output]
            ),
        ]
    }
}
