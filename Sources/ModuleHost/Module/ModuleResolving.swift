/// The resolution a ``ModuleBridge`` hands its calls to: the interface, implemented by the registry above.
protocol ModuleResolving: Sendable {
    /// The module registered under `identifier`, loading it on first use.
    func module(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol
    /// The service of static type `Service`, loading its provider on first use.
    func service<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service
    /// Whether some module (or an injection) provides the service whose type has identity `key`.
    func provides(_ key: ObjectIdentifier) -> Bool
    /// Every service declared by a registered module, with its provider.
    func serviceDescriptions() -> [ModuleBridge.ServiceDescription]
}
