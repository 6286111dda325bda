/// Decodes a ``ConfigurableModule``'s configuration when only its existential type is at hand.
enum ConfigurationDecoding {
    /// The decoded configuration of `type`, `nil` if the module takes none; throws located diagnostics.
    static func decode(
        for type: any ModuleProtocol.Type, from configuration: ModuleConfiguration
    ) throws(ManifestError) -> (any Sendable)? {
        guard let configurable = type as? any ConfigurableModule.Type else { return nil }
        return try decodeOpened(configurable, configuration)
    }

    private static func decodeOpened<Module: ConfigurableModule>(
        _ type: Module.Type, _ configuration: ModuleConfiguration
    ) throws(ManifestError) -> any Sendable {
        try configuration.decode(Module.Configuration.self)
    }
}
