/// The other modules of the host a plugin uses (ModuleHostState, ModuleHostRouting, the app's interface targets):
/// each must be recorded in the plugin's section with this host's identity of it.
extension PluginInspector {
    /// Refuses a library whose section records a module this host lacks or has with another identity, or that uses
    /// (takes symbols from) a module of this host with an identity that its section does not record.
    static func checkModules(_ recorded: [String: String]?, undefined: [String], host: Host, path: String, library: String) throws(PluginError) {
        let rebuild = "loading it could crash the host, so it was not loaded: rebuild the plugin against this host's modules and stamp it"
        guard let recorded else {
            throw PluginError(.invalidABIMark, library: library, message:
                "\(path) has a section \(ABIMark.elfSection) whose lines after the first are not module marks (\"\(ABIMark.modulePrefix)<module> "
                + "<64 lowercase hexadecimal digits>\", each module once); rebuild and stamp it with this host's plugin tooling")
        }
        for (module, digest) in recorded.sorted(by: { $0.key < $1.key }) {
            guard let own = host.moduleIdentity(module) else {
                throw PluginError(.abiMismatch, library: library, message:
                    "\(path) was built against a module \(module) that this host does not have (or has without an ABI identity); \(rebuild)")
            }
            guard own == digest else {
                throw PluginError(.abiMismatch, library: library, message:
                    "\(path) was built against another \(module) (ABI \(digest.prefix(12))…) than this host's (ABI \(own.prefix(12))…); \(rebuild)")
            }
        }
        var checked: Set<String> = ["ModuleHost", "Swift"]
        for module in ABIMark.modulesNamed(by: undefined) where checked.insert(module).inserted && recorded[module] == nil {
            guard let own = host.moduleIdentity(module) else { continue }
            throw PluginError(.missingABIMark, library: library, message:
                "\(path) uses this host's \(module) (ABI \(own.prefix(12))…), but its section \(ABIMark.elfSection) does not record which "
                + "\(module) it was compiled against; stamp it with Scripts/stamp-plugin.sh --interface <the host's module folder>")
        }
    }
}
