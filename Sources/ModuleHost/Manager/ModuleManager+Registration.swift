#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ModuleManager {
    /// Reads, validates and registers the manifest at `url` (the seed's name for it); returns its warnings.
    ///
    /// Every problem is reported at once in the thrown ``ManifestError``; nothing is registered unless the
    /// whole manifest is valid. Modules are instantiated later: on first resolve, or by ``loadEagerModules()``
    /// (which a host calls after registering, before ``Initiator/start()``, for modules marked `"eager": true`).
    /// Plugin libraries the manifest names are checked by reading them, then loaded, in a step of their own, and
    /// validation follows.
    ///
    /// - Parameter url: The manifest file.
    /// - Returns: The manifest's warnings; empty when there are none.
    /// - Throws: ``ManifestError`` with every problem found, each located in the file.
    @discardableResult
    public func registerModules(withConfigFilePath url: URL) throws(ManifestError) -> [ManifestDiagnostic] {
        try registerModules(atPath: url.path)
    }

    /// Reads, validates and registers the manifest file at `path` (``registerModules(withConfigFilePath:)``
    /// without building a URL, for a host that has the path at hand); returns its warnings.
    @discardableResult
    package func registerModules(atPath path: String) throws(ManifestError) -> [ManifestDiagnostic] {
        let read = ManifestReader.read(atPath: path)
        return try register(read, file: path)
    }

    /// Reads, validates and registers the manifest at `url`, except that plugin libraries are only inspected, not
    /// loaded, and their entries left out: what a host's `validate` command registers to plan startup without
    /// running plugin code. Returns its warnings, and how many plugin modules were left out.
    package func registerModulesWithoutPlugins(atPath path: String) throws(ManifestError)
        -> (warnings: [ManifestDiagnostic], pluginModules: Int) {
        let read = ManifestReader.read(atPath: path)
        let plugins = read.manifest?.modules.count { $0.library != nil } ?? 0
        return (try register(read, file: path, loadingPlugins: false), plugins)
    }

    /// Reads, validates and registers manifest `data`, as ``registerModules(withConfigFilePath:)`` does a file.
    ///
    /// - Parameters:
    ///   - data: The manifest's JSON.
    ///   - file: The name diagnostics give the manifest; `nil` for none.
    /// - Returns: The manifest's warnings; empty when there are none.
    /// - Throws: ``ManifestError`` with every problem found, each located in the data.
    @discardableResult
    public func registerModules(from data: Data, file: String? = nil) throws(ManifestError) -> [ManifestDiagnostic] {
        try register(ManifestReader.read(data, file: file), file: file)
    }

    /// Every problem in the manifest at `url`, checked against this manager's registrations, without registering.
    ///
    /// Plugin libraries are checked by reading their files (the same checks as registration: path, folders, mode,
    /// checksum, format, architecture, ABI mark, the type's definition, the ModuleHost symbols they need); none is
    /// loaded, so no plugin code runs. What only a loaded type can tell (its identifier, services, commands,
    /// requirements) is checked when the manifest is registered.
    ///
    /// - Parameter url: The manifest file.
    /// - Returns: Every diagnostic, errors and warnings; empty for a valid manifest.
    public func validateManifest(at url: URL) -> [ManifestDiagnostic] {
        var read = ManifestReader.read(contentsOf: url)
        _ = validate(&read, loadingPlugins: false)
        return read.diagnostics
    }

    /// Every problem in manifest `data` (`file` names it in diagnostics), checked against this manager's
    /// registrations, without registering; plugin libraries are inspected, not loaded, as by ``validateManifest(at:)``.
    ///
    /// - Parameters:
    ///   - data: The manifest's contents.
    ///   - file: The manifest's name in diagnostics.
    /// - Returns: Every diagnostic, errors and warnings; empty for a valid manifest.
    public func validateManifest(_ data: Data, file: String? = nil) -> [ManifestDiagnostic] {
        var read = ManifestReader.read(data, file: file)
        _ = validate(&read, loadingPlugins: false)
        return read.diagnostics
    }

    /// Checks the manifest's plugin libraries (and loads them when `loadingPlugins`), then validates it; every
    /// stage reports into the read's one sink. Returns the registrations, or none when there is an error.
    private func validate(_ read: inout ManifestReader.Result, loadingPlugins: Bool) -> [ModuleRegistration] {
        // Entries whose structure was sound are checked further even when others were not, so one run
        // reports every problem, like a compiler.
        guard let manifest = read.manifest else { return [] }
        let structurallySound = !read.sink.hasErrors
        let resolver = typeResolver
        let plugins = PluginLoader.prepareLibraries(of: manifest, load: loadingPlugins,
                                                    isTypeKnown: { resolver.type(named: $0) != nil }, into: &read.sink)
        let validator = ManifestValidator(manifest: manifest, resolver: typeResolver, existing: registry.registeredModules(),
                                          reservedCommandNames: reservedCommandNames, plugins: plugins)
        let registrations = validator.validate(into: &read.sink)
        return structurallySound ? registrations : []
    }

    private func register(_ read: ManifestReader.Result, file: String?, loadingPlugins: Bool = true) throws(ManifestError) -> [ManifestDiagnostic] {
        var read = read
        let registrations = validate(&read, loadingPlugins: loadingPlugins)
        guard !read.sink.hasErrors else {
            throw ManifestError(file: file, diagnostics: read.diagnostics)
        }
        let routing = read.manifest?.routing.map { (settings: $0, origin: file ?? "a manifest") }
        try add(registrations, routing: routing, file: file, path: "")
        return read.diagnostics
    }

    /// Adds validated registrations; throws if another caller registered one of their identifiers meanwhile.
    private func add(_ registrations: [ModuleRegistration], routing: (settings: RoutingSettings, origin: String)? = nil,
                     file: String?, path: String) throws(ManifestError) {
        let clashes = registry.add(registrations, routing: routing)
        // A part not made yet (a router) reads the registrations when it is.
        for part in parts.attachedParts { part.registrationsChanged() }
        guard clashes.isEmpty else {
            throw ManifestError(file: file, diagnostics: clashes.map { clash in
                switch clash {
                case .identifier(let identifier):
                    ManifestDiagnostic(.error, .duplicateIdentifier, file: file, path: path, location: nil,
                                       message: "module identifier \"\(identifier)\" is already registered")
                case .contributionKey(let message):
                    ManifestDiagnostic(.error, .invalidContribution, file: file, path: path, location: nil, message: message)
                case .libraryCheck(let found):
                    ManifestDiagnostic(.error, found.code, file: file, path: path, location: nil, message: found.message)
                }
            })
        }
    }

    // MARK: Registration in code

    /// Registers a module type in code; its requirements are checked when it loads.
    ///
    /// - Parameters:
    ///   - type: The module type.
    ///   - eager: Whether ``loadEagerModules()`` loads it.
    /// - Throws: ``ManifestError`` when its identifier, a service or a command is already registered, when it lists
    ///   a service from another module type (`ManifestDiagnostic.Code.serviceNotProvided`), or when it needs a
    ///   configuration.
    public func register<Module: ModuleProtocol>(_ type: Module.Type, eager: Bool = false) throws(ManifestError) {
        let path = "register(\(TypeName.of(type)).self)"
        var configuration: (any Sendable)?
        do {
            configuration = try ConfigurationDecoding.decode(for: type, from: ModuleConfiguration(json: Data("{}".utf8)))
        } catch {
            throw ManifestError(file: nil, diagnostics: error.diagnostics.map {
                ManifestDiagnostic(.error, .invalidConfig, file: nil, path: path, location: nil,
                                   message: "\(TypeName.of(type)) needs a configuration: \($0.message)")
            })
        }
        try registerInCode(type, eager: eager, configuration: configuration)
    }

    /// Registers a configurable module type in code, with its configuration as a value.
    ///
    /// - Parameters:
    ///   - type: The module type.
    ///   - config: Its configuration.
    ///   - eager: Whether ``loadEagerModules()`` loads it.
    /// - Throws: ``ManifestError`` when its identifier, a service or a command is already registered.
    public func register<Module: ConfigurableModule>(
        _ type: Module.Type, config: Module.Configuration, eager: Bool = false
    ) throws(ManifestError) {
        try registerInCode(type, eager: eager, configuration: config)
    }

    /// Checks what can be checked of one type registered in code (its identifier, services and command names
    /// against what is registered, and that it adopts every service it lists; requirements may come later and are
    /// checked when it loads), then adds it.
    private func registerInCode(_ type: any ModuleProtocol.Type, eager: Bool, configuration: (any Sendable)?) throws(ManifestError) {
        let name = TypeName.of(type)
        let path = "register(\(name).self)"
        let entry = Manifest.Entry(typeName: name, eager: eager, path: path)
        let validator = ManifestValidator(manifest: Manifest(modules: [entry]), resolver: .types([type]),
                                          existing: registry.registeredModules(), reservedCommandNames: reservedCommandNames)
        var sink = DiagnosticSink(file: nil)
        let resolved = [ManifestValidator.ResolvedEntry([entry], at: 0, type: type)]
        _ = validator.checkUniqueness(of: resolved, into: &sink)
        validator.checkCommandNames(of: resolved, into: &sink)
        validator.checkContributions(of: resolved, into: &sink)
        validator.checkLibraryPoints(of: resolved, into: &sink)
        validator.checkProvidedServices(of: resolved, into: &sink)
        guard !sink.hasErrors else { throw ManifestError(file: nil, diagnostics: sink.diagnostics) }
        let registration = ModuleRegistration(resolved[0], typeName: name, eager: eager, configuration: configuration,
                                              startup: StartupOverrides(), origin: .code)
        try add([registration], file: nil, path: path)
    }
}
