/// Decodes a module's configuration when only its existential type is at hand.
enum ConfigurationDecoding {
    /// The decoded configuration of `type`, `nil` if the module takes none; throws located diagnostics.
    static func decode(
        for type: any ModuleProtocol.Type, from configuration: ModuleConfiguration
    ) throws(ManifestError) -> (any Sendable)? {
        try decodeOpened(type, configuration)
    }

    /// Reads the type's ``ModuleProtocol/Configuration`` through its conformance (no runtime lookup).
    private static func decodeOpened<Module: ModuleProtocol>(
        _ type: Module.Type, _ configuration: ModuleConfiguration
    ) throws(ManifestError) -> (any Sendable)? {
        guard Module.Configuration.self != Never.self else { return nil }
        return try configuration.decode(Module.Configuration.self)
    }
}
