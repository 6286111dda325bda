internal import ModuleHostBinaryImage
/// Checks a plugin library by reading its file, before anything loads it: format and architecture, that it does
/// not carry its own ModuleHost, its ABI mark against this host's identity, that it defines the entry's type, that
/// this host exports every ModuleHost symbol it needs, and that every library it needs is one the host trusts
/// (``PluginDependencies``). Runs no code of the library.
enum PluginInspector {
    /// What the checks need besides the file; injectable for tests.
    struct Host {
        var identity: ABIMark.Identity = .host
        var isExported: (String) -> Bool = HostExports.isExportedByHost
        /// This host's identity (digest) of another module a plugin may compile against, or `nil` when it has none.
        var moduleIdentity: (String) -> String? = ABIMark.hostIdentity(of:)
        /// Which libraries a plugin may bring in with it.
        var dependencies = PluginDependencies()
    }

    /// Inspects the library open as `descriptor` (`size` bytes) for an entry naming `typeName`; returns the types
    /// the library defines, or throws the first refusal.
    static func inspect(descriptor: Int32, size: UInt64, path: String, library: String, typeName: String,
                        host: Host = Host()) throws(PluginError) -> Set<String> {
        func refuse(_ code: PluginError.Code, _ message: String) -> PluginError { PluginError(code, library: library, message: message) }
        let file = BoundedFile(descriptor: descriptor, size: size)
        let binary: PluginBinary
        let marks: [ABIMark.Identity]
        do {
            binary = try PluginBinary.read(file)
            marks = binary.mark == nil ? [] : try ABIMark.marks(in: file)
        } catch {
            throw error.notAnObject ? refuse(.notALibrary, "\(path) is not a shared library: \(error.reason)")
                : refuse(.malformedLibrary, "\(path) is not a well-formed shared library: \(error.reason)")
        }
        if let foreign = binary.foreignArchitecture {
            throw refuse(.wrongArchitecture, "\(path) is a library for another architecture: \(foreign)")
        }
        guard binary.isSharedObject else {
            throw refuse(.notALibrary, "\(path) is not a shared library: it is an executable or an object file")
        }
        let symbols = binary.symbols, markBytes = binary.mark
        try checkOwnModuleHost(symbols.defined, path: path, library: library)
        let parts = markBytes.map { ABIMark.split(section: $0) }
        let section = try checkMark(parts?.mark, host: host.identity, path: path, library: library)
        try checkCode(marks, section: section, path: path, library: library)
        try checkModules(parts?.modules, undefined: symbols.undefined, host: host, path: path, library: library)
        let types = Set(symbols.defined.compactMap(SwiftDemangler.describedType))
        guard types.contains(typeName) else {
            throw refuse(.typeNotDefined, "\(path) defines no type named \"\(typeName)\"" + listing(types.sorted(), as: "it defines"))
        }
        // The conformances the file declares say which types are modules, with no code loaded.
        let modules = symbols.defined.compactMap(SwiftDemangler.moduleType)
        guard modules.contains(typeName) else {
            throw refuse(.notAModule, "\(path) defines \"\(typeName)\", but not as a module: the library declares no conformance of it "
                         + "to ModuleProtocol (a module class adopts it itself)"
                         + (modules.isEmpty ? "; it declares no module" : listing(Array(Set(modules)).sorted(), as: "its modules are")))
        }
        try checkExports(symbols.undefined, host: host, path: path, library: library)
        try host.dependencies.check(binary.dependencies, path: path, library: library)
        return types
    }

    /// Refuses a library that defines ModuleHost's or ModuleHostState's own symbols (not extensions of their types): a
    /// second copy of one.
    static func checkOwnModuleHost(_ defined: [String], path: String, library: String) throws(PluginError) {
        let own = defined.compactMap { symbol in HostExports.library(of: symbol).map { (library: $0, name: SwiftDemangler.demangle(symbol)) } }
            .filter { !$0.name.contains("(extension in ") && !$0.name.contains("conformance") && !$0.name.contains("witness") }
        guard let name = own.first?.library else { return }
        let copied = own.filter { $0.library == name }.map(\.name)
        throw PluginError(.bundlesModuleHost, library: library, message:
            "\(path) carries its own copy of \(name) (it defines \(copied.count) of \(name)'s symbols, like \(copied.prefix(2).joined(separator: " and "))); "
            + "a plugin must use the host's \(name): compile it against the host's \(name).swiftmodule without linking \(name) into it")
    }

    /// Compares the library's ABI mark with this host's identity: the compiler, then the target, then the sources.
    /// Returns the mark.
    @discardableResult
    static func checkMark(_ bytes: [UInt8]?, host: ABIMark.Identity, path: String, library: String) throws(PluginError) -> ABIMark.Identity {
        guard let bytes else {
            throw PluginError(.missingABIMark, library: library, message:
                "\(path) carries no ModuleHost ABI mark (section \(ABIMark.elfSection)), so nothing shows which ModuleHost it was built against; "
                + "build and stamp it with the project's plugin tooling (as Examples/GreeterPlugin/build.sh does)")
        }
        guard let identity = ABIMark.identity(in: bytes) else {
            throw PluginError(.invalidABIMark, library: library, message:
                "\(path) has a section \(ABIMark.elfSection) that is not a ModuleHost ABI mark (\"\(ABIMark.prefix)\", 64 lowercase hexadecimal digits, "
                + "a target triple and a compiler version); rebuild and stamp it with this host's plugin tooling")
        }
        let rebuild = "loading it could crash the host, so it was not loaded: rebuild the plugin against this host"
        guard identity.compiler == host.compiler else {
            throw PluginError(.abiMismatch, library: library, message:
                "\(path) was built by another Swift compiler (\(identity.compiler)) than this host (\(host.compiler)); "
                + "Swift has no stable ABI on this platform: \(rebuild), with the host's compiler")
        }
        guard identity.triple == host.triple else {
            throw PluginError(.abiMismatch, library: library, message:
                "\(path) was built for another target (\(identity.triple)) than this host's (\(host.triple)); \(rebuild)")
        }
        guard identity.digest == host.digest else {
            throw PluginError(.abiMismatch, library: library, message:
                "\(path) was built against another ModuleHost (ABI \(identity.short)…) than this host's (ABI \(host.short)…); \(rebuild)")
        }
        return identity
    }

    /// Compares the section's mark with the marks in the file (`marks`, the section's own among them): the code must
    /// carry a mark, and the same one. A section written by hand, or a library that was not recompiled, is refused.
    static func checkCode(_ marks: [ABIMark.Identity], section: ABIMark.Identity, path: String, library: String) throws(PluginError) {
        if let other = marks.first(where: { $0 != section }) {
            throw PluginError(.abiMismatch, library: library, message:
                "\(path) has a section \(ABIMark.elfSection) saying ModuleHost ABI \(section.short)…, but its code was compiled against "
                + "ABI \(other.short)… (\(other.compiler), \(other.triple)); the section was not copied from the code by the plugin "
                + "tooling, so loading it could crash the host, and it was not loaded: rebuild the plugin against this host and stamp it")
        }
        guard marks.count >= 2 else {
            throw PluginError(.missingABIMark, library: library, message:
                "\(path) has a section \(ABIMark.elfSection), but its code carries no ModuleHost ABI mark: it declares no module type, "
                + "or was compiled against a ModuleHost its package did not build; rebuild it against this host and stamp it")
        }
    }

    /// Checks that this host exports every ModuleHost symbol the library needs.
    static func checkExports(_ undefined: [String], host: Host, path: String, library: String) throws(PluginError) {
        switch HostExports.verdict(undefined: undefined, isExported: host.isExported) {
        case .complete:
            return
        case .hostExportsNothing:
            throw PluginError(.hostExportsNoSymbols, library: library, message:
                "this host does not export its ModuleHost symbols, so no plugin can use them (\(path) needs some): the host's executable "
                + "must be linked with \(HostExports.linkerFlag) (in Package.swift: linkerSettings: [.unsafeFlags([\(HostExports.linkerFlag.split(separator: " ").map { "\"\($0)\"" }.joined(separator: ", "))])])")
        case .missing(let missing):
            // Name the library the symbols are of: a host may lack one built on ModuleHost (not linked at all).
            let libraries = Set(missing.compactMap(HostExports.library(of:))).sorted().joined(separator: " and ")
            let named = libraries.isEmpty ? "ModuleHost" : libraries
            throw PluginError(.missingSymbol, library: library, message:
                "\(path) needs \(missing.count == 1 ? "a symbol" : "\(missing.count) symbols") this host's \(named) does not export "
                + "(was it built against another \(named)\(named == "ModuleHost" ? "" : ", or is \(named) not linked into the host")?): "
                + missing.prefix(3).map(SwiftDemangler.demangle).joined(separator: "; ") + (missing.count > 3 ? "; …" : ""))
        }
    }

    private static func listing(_ names: [String], as lead: String) -> String {
        guard !names.isEmpty else { return "; it defines no Swift types" }
        return "; \(lead) " + names.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + (names.count > 5 ? ", …" : "")
    }
}
