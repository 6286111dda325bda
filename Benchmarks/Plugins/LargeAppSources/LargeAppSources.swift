import PackagePlugin

/// Generates the large app's 1,000 module types when the LargeApp target builds, so no generated source is
/// committed: the generator (Sources/LargeAppGenerator) is the source of truth.
@main
struct LargeAppSources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let generator = try context.tool(named: "LargeAppGenerator")
        let output = context.pluginWorkDirectoryURL
        let files = (0..<10).map { output.appending(path: "LargeModules0\($0).swift") }
            + [output.appending(path: "HandWiredLargeApp.swift")]
        return [.buildCommand(displayName: "Generating the large app's 1,000 modules and its hand-wired twins",
                              executable: generator.url, arguments: [output.path()],
                              inputFiles: [generator.url], outputFiles: files)]
    }
}
