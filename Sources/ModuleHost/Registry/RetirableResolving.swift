/// The resolution behind a module instance's own bridge: the registry's, refused once the instance is released.
///
/// Its warm table stays empty, so every resolve comes here and is checked: a released instance never gets a
/// module or service, not even one cached before it was released.
///
/// The registry is held weakly. The registry keeps each loaded instance's context, and an instance may keep its
/// context's bridge, so a strong reference would keep a dropped manager's registry, and every module it loaded,
/// alive for good. Once the registry is gone, a resolve throws `ResolutionError.Code.managerUnavailable`.
struct RetirableResolving: ModuleResolving {
    weak let base: ModuleRegistry?
    let retirement: ModuleRetirement

    /// A warm table that is never published to, shared by every instance bridge.
    private static let empty = WarmResolutions()

    var warm: WarmResolutions { Self.empty }

    func module(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol {
        try registry().module(identifier)
    }

    func service<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service {
        try registry().service(type)
    }

    func provides(_ key: ObjectIdentifier) -> Bool {
        base?.provides(key) ?? false
    }

    func serviceDescriptions() -> [ModuleBridge.ServiceDescription] {
        base?.serviceDescriptions() ?? []
    }

    /// The registry, while the instance is not released and the registry exists.
    private func registry() throws(ResolutionError) -> ModuleRegistry {
        try retirement.check()
        guard let base else { throw retirement.managerGone }
        return base
    }
}
