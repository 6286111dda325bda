import PackagePlugin

/// Generates a large app's 1,000 module types when its target builds, so no generated source is committed: the
/// generator (Sources/LargeAppGenerator) is the source of truth. LargeApp gets a configuration type per module;
/// SharedConfigApp gets the same modules sharing one configuration type.
@main
struct LargeAppSources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let generator = try context.tool(named: "LargeAppGenerator")
        let output = context.pluginWorkDirectoryURL
        let shared = target.name == "SharedConfigApp"
        let prefix = shared ? "Shared" : "Large"
        let files = (0..<10).map { output.appending(path: "\(prefix)Modules0\($0).swift") }
            + [output.appending(path: "HandWired\(prefix)App.swift"), output.appending(path: "Linked\(prefix)Modules.swift")]
            + (shared ? [output.appending(path: "SharedModuleConfiguration.swift")] : [])
        return [.buildCommand(displayName: "Generating \(target.name)'s 1,000 modules, its hand-wired twins and its list of linked modules",
                              executable: generator.url, arguments: [output.path()] + (shared ? ["--shared"] : []),
                              inputFiles: [generator.url], outputFiles: files)]
    }
}
