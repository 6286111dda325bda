/// Resolves modules by identifier and services by protocol, so modules never import each other's code.
///
/// ```swift
/// let auth = try manager.bridge.resolve(AuthService.self)   // typed, no cast at the call site
/// let module = try manager.bridge.resolve(.auth)            // the module itself, by identifier
/// ```
/// The first resolve instantiates the provider (and the modules it requires) and runs its `moduleDidLoad`
/// exactly once, even when many tasks ask at the same moment. Later resolves are a cached, typed lookup.
public final class ModuleBridge: Sendable {
    let registry: any ModuleResolving

    init(registry: any ModuleResolving) {
        self.registry = registry
    }

    /// The module registered under `identifier`, loading it on first use.
    ///
    /// - Parameter identifier: The module's identifier.
    /// - Returns: The loaded module.
    /// - Throws: ``ResolutionError``: `unknownModule` (with a suggestion), `loadFailed`, `resolutionCycle`, or
    ///   `moduleReleased` through a released instance's context.
    public func resolve(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol {
        try registry.module(identifier)
    }

    /// The module registered under `identifier`, as `type` (a module class or a protocol it adopts).
    ///
    /// - Parameters:
    ///   - identifier: The module's identifier.
    ///   - type: The type to return the module as.
    /// - Returns: The loaded module, as `type`.
    /// - Throws: ``ResolutionError``: what ``resolve(_:)-(ModuleIdentifier)`` throws, or `wrongModuleType` when the
    ///   module is not a `type`.
    public func resolve<T>(_ identifier: ModuleIdentifier, as type: T.Type) throws(ResolutionError) -> T {
        let module = try registry.module(identifier)
        guard let typed = module as? T else {
            throw ResolutionError(
                .wrongModuleType,
                "module \"\(identifier)\" is a \(TypeName.of(Swift.type(of: module))), not a \(TypeName.of(type))")
        }
        return typed
    }

    /// The service of type `Service` (usually a protocol), from the module that declares it provides it.
    ///
    /// - Parameter type: The service's type, as the providing module declares it.
    /// - Returns: The service, loading its provider on first use.
    /// - Throws: ``ResolutionError``: `unprovidedService` when no module provides it, `serviceNotImplemented`,
    ///   `loadFailed` or `resolutionCycle` when its provider cannot be loaded.
    public func resolve<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service {
        try registry.service(type)
    }

    /// The service of type `Service`, or `nil` when no module provides it.
    ///
    /// - Parameter type: The service's type.
    /// - Returns: The service, or `nil` when no module (and no injection) provides it.
    /// - Throws: ``ResolutionError`` when a provider exists but fails to load.
    public func resolveIfProvided<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service? {
        guard registry.provides(ObjectIdentifier(Service.self)) else { return nil }
        return try registry.service(type)
    }

    /// Whether some registered module (or an injection) provides `Service`.
    ///
    /// - Parameter type: The service's type.
    /// - Returns: `true` when a module or an injection provides it.
    package func provides<Service>(_ type: Service.Type) -> Bool {
        registry.provides(ObjectIdentifier(Service.self))
    }

    /// Every service the registered modules declare, with its provider, in registration order.
    public var services: [ServiceDescription] {
        registry.serviceDescriptions()
    }
}
