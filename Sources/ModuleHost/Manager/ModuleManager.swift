import Foundation

/// Reads the manifest, registers modules, and owns the ``ModuleBridge`` and ``Initiator`` built on them.
///
/// ```swift
/// let manager = ModuleManager()
/// try manager.registerModules(withConfigFilePath: URL(fileURLWithPath: "modules.json"))
/// let auth = try manager.bridge.resolve(AuthService.self)
/// ```
/// Managers share no state with each other, so tests can each make their own and run in parallel.
public final class ModuleManager: ModuleContext {
    /// A process-wide manager for apps that want one; nothing in the library uses it.
    public static let `default` = ModuleManager()

    /// Resolves modules and services.
    public let bridge: ModuleBridge
    /// Finds module types by the names written in manifests.
    public let typeResolver: ModuleTypeResolver
    /// Runs the registered modules' startup operations (read when ``Initiator/start()`` is called) together
    /// with any added in code, as one graph.
    public let initiator: Initiator
    let registry: ModuleRegistry

    /// Command names the host keeps for its own commands; a module declaring one is a validation error.
    public let reservedCommandNames: Set<String>

    /// Creates an empty manager that looks module types up with `typeResolver`; its initiator runs at most
    /// `maxConcurrentOperations` operations at once in concurrent phases (default: the active processors).
    /// `reservedCommandNames` are the host's own commands, which no module may declare.
    public init(typeResolver: ModuleTypeResolver = .runtime(),
                maxConcurrentOperations: Int = ProcessInfo.processInfo.activeProcessorCount,
                reservedCommandNames: Set<String> = []) {
        self.reservedCommandNames = reservedCommandNames
        let registry = ModuleRegistry()
        self.registry = registry
        self.typeResolver = typeResolver
        self.bridge = ModuleBridge(registry: registry)
        let source = WeakContextReference()
        self.initiator = Initiator(maxConcurrentOperations: maxConcurrentOperations) {
            (source.context as? ModuleManager)?.startupOperations() ?? []
        }
        registry.setOwner(self)
        source.set(self)
    }

    // MARK: Registration from a manifest

    /// Reads, validates and registers the manifest at `url` (the seed's name for it); returns its warnings.
    ///
    /// Every problem is reported at once in the thrown ``ManifestError``; nothing is registered unless the
    /// whole manifest is valid. Modules are instantiated later: on first resolve, or by ``loadEagerModules()``.
    @discardableResult
    public func registerModules(withConfigFilePath url: URL) throws(ManifestError) -> [ManifestDiagnostic] {
        try register(ManifestReader.read(contentsOf: url), file: url.path)
    }

    /// Reads, validates and registers manifest `data`; `file` names it in diagnostics. Returns its warnings.
    @discardableResult
    public func registerModules(from data: Data, file: String? = nil) throws(ManifestError) -> [ManifestDiagnostic] {
        try register(ManifestReader.read(data, file: file), file: file)
    }

    /// Validates and registers a decoded manifest; returns its warnings.
    @discardableResult
    public func registerModules(from manifest: Manifest) throws(ManifestError) -> [ManifestDiagnostic] {
        try register(ManifestReader.Result(manifest: manifest, diagnostics: []), file: manifest.file)
    }

    /// Every problem in the manifest at `url`, checked against this manager's registrations, without registering.
    public func validateManifest(at url: URL) -> [ManifestDiagnostic] {
        validate(ManifestReader.read(contentsOf: url)).diagnostics
    }

    private func validate(_ read: ManifestReader.Result) -> (registrations: [ModuleRegistration], diagnostics: [ManifestDiagnostic]) {
        // Entries whose structure was sound are checked further even when others were not, so one run
        // reports every problem, like a compiler.
        guard let manifest = read.manifest else { return ([], read.diagnostics) }
        let validation = ManifestValidator(manifest: manifest, resolver: typeResolver, existing: registry.existing(),
                                           reservedCommandNames: reservedCommandNames).validate()
        let structurallySound = !read.diagnostics.contains { $0.severity == .error }
        return (structurallySound ? validation.registrations : [], read.diagnostics + validation.diagnostics)
    }

    private func register(_ read: ManifestReader.Result, file: String?) throws(ManifestError) -> [ManifestDiagnostic] {
        let (registrations, diagnostics) = validate(read)
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            throw ManifestError(file: file, diagnostics: diagnostics)
        }
        let clashes = registry.add(registrations)
        guard clashes.isEmpty else {
            throw ManifestError(file: file, diagnostics: clashes.map {
                ManifestDiagnostic(.error, .duplicateIdentifier, file: file, path: "", location: nil,
                                   message: "module identifier \"\($0)\" was registered concurrently by another caller")
            })
        }
        return diagnostics
    }

    // MARK: Registration in code

    /// Registers a module type in code; its requirements are checked when it loads.
    public func register<Module: ModuleProtocol>(_ type: Module.Type, eager: Bool = false) throws(ManifestError) {
        var configuration: (any Sendable)?
        do {
            configuration = try ConfigurationDecoding.decode(for: type, from: .empty(file: nil, path: "config"))
        } catch {
            throw ManifestError(file: nil, diagnostics: error.diagnostics.map {
                ManifestDiagnostic(.error, .invalidConfig, file: nil, path: String(reflecting: type), location: nil,
                                   message: "\(String(reflecting: type)) needs a configuration: \($0.message)")
            })
        }
        try registerInCode(type, eager: eager, configuration: configuration)
    }

    /// Registers a configurable module type in code, with its configuration as a value.
    public func register<Module: ConfigurableModule>(
        _ type: Module.Type, config: Module.Configuration, eager: Bool = false
    ) throws(ManifestError) {
        try registerInCode(type, eager: eager, configuration: config)
    }

    private func registerInCode(_ type: any ModuleProtocol.Type, eager: Bool, configuration: (any Sendable)?) throws(ManifestError) {
        let name = String(reflecting: type)
        let manifest = Manifest(modules: [Manifest.Entry(typeName: name, eager: eager, path: "register(\(name).self)")])
        let validator = ManifestValidator(
            manifest: manifest, resolver: ModuleTypeResolver(lookup: { $0 == name ? type : nil }), existing: registry.existing(),
            reservedCommandNames: reservedCommandNames)
        let (_, diagnostics) = validator.validate()
        // Requirements may be registered later in code; they are checked when the module loads.
        let errors = diagnostics.filter {
            $0.severity == .error && ![.missingRequirement, .disabledRequirement, .invalidConfig].contains($0.code)
        }
        guard errors.isEmpty else { throw ManifestError(file: nil, diagnostics: errors) }
        let registration = ModuleRegistration(
            type: type, typeName: name, eager: eager, configuration: configuration, startup: StartupOverrides(), origin: "code")
        let clashes = registry.add([registration])
        guard clashes.isEmpty else {
            throw ManifestError(file: nil, diagnostics: [ManifestDiagnostic(
                .error, .duplicateIdentifier, file: nil, path: "register(\(name).self)", location: nil,
                message: "module identifier \"\(type.moduleIdentifier)\" is already registered")])
        }
    }

    // MARK: Modules

    /// The configuration decoded for `type` from its manifest entry (or given at registration).
    public func configuration<Module: ConfigurableModule>(for type: Module.Type) throws(ResolutionError) -> Module.Configuration {
        guard let registration = registry.registration(for: type.moduleIdentifier) else {
            throw ResolutionError(.unknownModule, "module \"\(type.moduleIdentifier)\" is not registered, so it has no configuration")
        }
        guard let configuration = registration.configuration as? Module.Configuration else {
            throw ResolutionError(
                .configurationUnavailable,
                "module \"\(type.moduleIdentifier)\" is registered as \(registration.typeName), whose configuration is not a \(String(reflecting: Module.Configuration.self))")
        }
        return configuration
    }

    /// Every registered module, in registration order, with its state.
    public var modules: [ModuleDescription] {
        registry.descriptions()
    }

    /// The loaded module instances, in the order they finished loading.
    public func loadedModules() -> [any ModuleProtocol] {
        registry.loadedModules()
    }

    /// Instantiates every module marked `eager`, in registration order; returns the failures (the rest still load).
    @discardableResult
    public func loadEagerModules() -> [ResolutionError] {
        registry.loadEagerModules()
    }

    /// Calls `moduleWillUnload` on every loaded module in reverse load order and forgets them;
    /// returns their identifiers in the order they were unloaded. A later resolve loads a module afresh.
    @discardableResult
    public func unloadAll() -> [ModuleIdentifier] {
        registry.unloadAll()
    }

    /// Releases one module (the seed's `markAsReleasing()`): first every loaded module that requires it,
    /// directly or not, then the module itself, calling `moduleWillUnload` in reverse load order. Their cached
    /// services are dropped, and the next resolve creates fresh instances; a module that failed to load gets
    /// another try. A module that another thread is loading is waited for, then released too; once this returns,
    /// no resolve hands out a released instance. Returns the identifiers released, in order (empty when none of
    /// them was loaded).
    ///
    /// Throws ``ResolutionError/Code/unknownModule`` for an identifier that is not registered, and
    /// ``ResolutionError/Code/releasedWhileLoading`` when called from the loading of one of the modules it
    /// would release (waiting for itself would never end).
    @discardableResult
    public func releaseModule(_ identifier: ModuleIdentifier) throws(ResolutionError) -> [ModuleIdentifier] {
        try registry.release(identifier)
    }

    // MARK: Test support

    /// Makes `bridge.resolve(identifier)` return `module` (which is used as is: `moduleDidLoad` is not called).
    public func inject(_ module: any ModuleProtocol, for identifier: ModuleIdentifier) {
        registry.inject(module, for: identifier)
    }

    /// Removes an injected module; resolves go back to the registered module.
    public func removeInjection(for identifier: ModuleIdentifier) {
        registry.removeInjection(for: identifier)
    }

    /// Makes `bridge.resolve(Service.self)` return `service`, whoever provides it.
    public func inject<Service: Sendable>(_ service: Service, as type: Service.Type) {
        registry.inject(service, as: type)
    }

    /// Removes an injected service; resolves go back to the module that provides it.
    public func removeInjection<Service: Sendable>(as type: Service.Type) {
        registry.removeInjection(as: type)
    }
}
