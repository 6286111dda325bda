/// The resolution behind a module instance's own bridge: the registry's, refused once the instance is released.
///
/// Its warm table stays empty, so every resolve comes here and is checked: a released instance never gets a
/// module or service, not even one cached before it was released.
struct RetirableResolving: ModuleResolving {
    let base: ModuleRegistry
    let retirement: ModuleRetirement

    /// A warm table that is never published to, shared by every instance bridge.
    private static let empty = WarmResolutions()

    var warm: WarmResolutions { Self.empty }

    func module(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol {
        try retirement.check()
        return try base.module(identifier)
    }

    func service<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service {
        try retirement.check()
        return try base.service(type)
    }

    func provides(_ key: ObjectIdentifier) -> Bool {
        base.provides(key)
    }

    func serviceDescriptions() -> [ModuleBridge.ServiceDescription] {
        base.serviceDescriptions()
    }
}
