import ModuleHost

/// Test support: stand-ins for modules and services, so a test exercises one module against fakes of the
/// others (a stand-in service is given with ModuleHost's `provide(_:as:)`). Injections override the registered
/// modules for one manager only; managers share nothing, so tests
/// that each make their own run in parallel.
extension ModuleManager {
    /// Makes `bridge.resolve(identifier)` return `module` (which is used as is: `moduleDidLoad` is not called).
    ///
    /// - Parameters:
    ///   - module: The stand-in instance.
    ///   - identifier: The module it stands in for.
    public func inject(_ module: any ModuleProtocol, for identifier: ModuleIdentifier) {
        registry.inject(module, for: identifier)
    }

    /// Removes an injected module; resolves go back to the registered module.
    ///
    /// - Parameter identifier: The module whose stand-in is removed.
    public func removeInjection(for identifier: ModuleIdentifier) {
        registry.removeInjection(for: identifier)
    }

    /// Removes a service given with `provide(_:as:)`; resolves go back to the module that provides it.
    ///
    /// - Parameter type: The service type the stand-in was provided as.
    public func removeInjection<Service: Sendable>(as type: Service.Type) {
        registry.removeInjection(as: Service.self)
    }
}

extension ModuleManager {
    /// Stands in for the module `identifier`, which the module under test requires, with `service`: one line per
    /// requirement, no hand-written module. Loading a module that requires `identifier` then finds the stand-in
    /// (a module that does nothing), and `bridge.resolve(Service.self)` returns `service`.
    ///
    /// ```swift
    /// let manager = ModuleManager()
    /// try manager.register(NotesModule.self)
    /// manager.standIn(for: .storage, providing: InMemoryStorage() as any StorageService)
    /// let notes = try manager.bridge.resolve(NotesService.self)
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: The required module it stands in for.
    ///   - service: What resolving `type` returns.
    ///   - type: The service type; `Service` by default.
    public func standIn<Service: Sendable>(for identifier: ModuleIdentifier, providing service: Service,
                                           as type: Service.Type = Service.self) {
        inject(StandInModule(), for: identifier)
        provide(service, as: type)
    }
}

/// The module ``ModuleManager/standIn(for:providing:as:)`` injects for a required module: it does nothing.
final class StandInModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "modulehost.testing.stand-in"
    init() {}
    convenience init(context: any ModuleContext) { self.init() }
}
