#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ModuleManager {
    /// Runs the registered modules' startup operations (read when ``Initiator/start()`` is called) together
    /// with any added in code, as one graph. Made on first use, so a manager that never starts anything never
    /// counts the processors.
    public var initiator: Initiator { parts.initiator }

    /// Creates an empty manager that looks module types up with `typeResolver`; its initiator runs at most
    /// `maxConcurrentOperations` operations at once in concurrent phases (default: the active processors).
    /// `reservedCommandNames` are the host's own commands, which no module may declare.
    ///
    /// - Parameters:
    ///   - typeResolver: How module types are found by name.
    ///   - maxConcurrentOperations: The most operations a concurrent phase runs at once.
    ///   - reservedCommandNames: The host's own commands, which no module may declare.
    public convenience init(typeResolver: ModuleTypeResolver = .runtime(),
                            maxConcurrentOperations: Int = ProcessInfo.processInfo.activeProcessorCount,
                            reservedCommandNames: Set<String> = []) {
        self.init(typeResolver: typeResolver, concurrency: maxConcurrentOperations, reservedCommandNames: reservedCommandNames)
    }

    /// Creates an empty manager as ``init(typeResolver:maxConcurrentOperations:reservedCommandNames:)`` does;
    /// with `concurrency` `nil` the initiator runs at most as many operations at once as there are active
    /// processors, counted when it is first needed (a host that only lists or checks never pays for it).
    package convenience init(typeResolver: ModuleTypeResolver = .runtime(), concurrency: Int?, reservedCommandNames: Set<String> = []) {
        let registry = ModuleRegistry()
        let source = WeakContextReference()
        let parts = LazyManagerParts(initiator: {
            Initiator(maxConcurrentOperations: concurrency ?? ProcessInfo.processInfo.activeProcessorCount) {
                (source.context as? ModuleManager)?.startupOperations() ?? []
            }
        })
        self.init(registry: registry, typeResolver: typeResolver, parts: parts, reservedCommandNames: reservedCommandNames)
        registry.setOwner(self)
        source.set(self)
    }

    // MARK: Modules

    /// The configuration decoded for `type` from its manifest entry (or given at registration).
    ///
    /// - Parameter type: The module type.
    /// - Returns: Its configuration.
    /// - Throws: ``ResolutionError`` when the module is not registered.
    public func configuration<Module: ConfigurableModule>(for type: Module.Type) throws(ResolutionError) -> Module.Configuration {
        guard let registration = registry.registration(for: type.moduleIdentifier) else {
            throw ResolutionError(.unknownModule, "module \"\(type.moduleIdentifier)\" is not registered, so it has no configuration")
        }
        guard let configuration = registration.configuration as? Module.Configuration else {
            throw ResolutionError(
                .configurationUnavailable,
                "module \"\(type.moduleIdentifier)\" is registered as \(registration.typeName), whose configuration is not a \(TypeName.of(Module.Configuration.self))")
        }
        return configuration
    }

    /// Every registered module, in registration order, with its state.
    public var modules: [ModuleDescription] {
        registry.descriptions()
    }

    /// The loaded module instances, in the order they finished loading.
    package func loadedModules() -> [any ModuleProtocol] {
        registry.loadedModules()
    }

    /// Instantiates every module marked `eager`, in registration order; returns the failures (the rest still load).
    ///
    /// Neither registering nor ``Initiator/start()`` loads eager modules: a host calls this after registering
    /// and before starting, so the modules are loaded when their startup operations run.
    ///
    /// - Returns: The failures, one per module that did not load.
    @discardableResult
    public func loadEagerModules() -> [ResolutionError] {
        registry.loadEagerModules()
    }

    /// Releases one module (the seed's `markAsReleasing()`): first every loaded module that requires it,
    /// directly or not, then the module itself, calling `moduleWillUnload` in reverse load order. Their cached
    /// services are dropped, and the next resolve creates fresh instances; a module that failed to load gets
    /// another try. A module that another thread is loading is waited for, then released too; once this returns,
    /// no resolve hands out a released instance. Returns the identifiers released, in order (empty when none of
    /// them was loaded).
    ///
    /// Throws `ResolutionError.Code.unknownModule` for an identifier that is not registered, and
    /// `ResolutionError.Code.releasedWhileLoading` when called from the loading of one of the modules it
    /// would release (waiting for itself would never end).
    ///
    /// - Parameter identifier: The module to release.
    /// - Returns: The identifiers released, in order.
    /// - Throws: ``ResolutionError``, as said above.
    @discardableResult
    public func releaseModule(_ identifier: ModuleIdentifier) throws(ResolutionError) -> [ModuleIdentifier] {
        try registry.release(identifier)
    }

    // MARK: Services of the host

    /// Makes the host itself the provider of `Service`, for services the host implements rather than a module
    /// (such as `HostEnvironment` from ModuleHostState): `bridge.resolve(Service.self)` returns `service`, overriding any module
    /// that declares it. Keyed by the static type `Service`.
    ///
    /// - Parameters:
    ///   - service: The host's implementation.
    ///   - type: The service type it is resolved as.
    public func provide<Service: Sendable>(_ service: Service, as type: Service.Type) {
        registry.inject(service, as: Service.self)
    }
}
