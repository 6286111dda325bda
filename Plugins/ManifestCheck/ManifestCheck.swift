import Foundation
import PackagePlugin

/// Checks the package's `modules.json` when the host is built: it generates Swift that names each module type the
/// manifest lists (entries of plugins and disabled entries aside), so a type that does not exist, a module that is
/// not linked, or a type that is not a module fails `swift build` with an error located at that entry of the
/// manifest. The host finds its modules through the generated list first.
///
/// A host target applies it with `plugins: ["ManifestCheck"]` (or, from another package,
/// `.plugin(name: "ManifestCheck", package: "modulehost")`), and depends on the module targets the manifest names.
@main
struct ManifestCheck: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let manifest = context.package.directoryURL.appending(path: "modules.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "LinkedModuleTypes.swift")
        return [
            .buildCommand(
                displayName: "Checking modules.json against the modules \(target.name) links",
                executable: try context.tool(named: "ManifestCheckTool").url,
                arguments: [output.path(percentEncoded: false), manifest.path(percentEncoded: false)],
                // No manifest: an empty list (the host then finds every module at run time).
                inputFiles: FileManager.default.fileExists(atPath: manifest.path(percentEncoded: false)) ? [manifest] : [],
                outputFiles: [output]
            ),
        ]
    }
}
