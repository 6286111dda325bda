import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory add-module <Name> [--host <target>] [--state]`: adds a module to a
/// host package, as *Adding a module* does by hand. It creates the interface target `<Name>Interface`, the
/// implementation target `<Name>Module` and the test target `<Name>ModuleTests`, each with a starting file that
/// builds (and a test that passes); adds them to `Package.swift`, makes the host depend on the implementation, and
/// adds the module to `modules.json`. Everything is checked before anything is written: an existing file is never
/// overwritten, and a name that is taken is refused. `--state` makes the module depend on ModuleHostState, for a
/// module that keeps files between runs.
@main
struct AddModule: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let host = extractor.extractOption(named: "host").last
        let keepsState = extractor.extractFlag(named: "state") > 0
        let names = extractor.remainingArguments
        guard names.count == 1 else {
            throw AddModuleError("usage: swift package --allow-writing-to-package-directory add-module <Name> [--host <target>] [--state]")
        }
        let plan = try ModulePlan(name: names[0], package: context.package, host: host, keepsState: keepsState)
        try plan.write()
        print(plan.summary)
    }
}

/// Why the module was not added; nothing was written.
struct AddModuleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "add-module: " + description }
}
