/// Decodes a ``ConfigurableModule``'s configuration when only its existential type is at hand.
enum ConfigurationDecoding {
    /// The decoded configuration of `type`, `nil` if the module takes none; throws located diagnostics.
    static func decode(
        for type: any ModuleProtocol.Type, from configuration: ModuleConfiguration
    ) throws(ManifestError) -> (any Sendable)? {
        guard let configurationType = type._configurationType else { return nil }
        return try decodeOpened(configurationType, configuration)
    }

    private static func decodeOpened<Configuration: Decodable & Sendable>(
        _ type: Configuration.Type, _ configuration: ModuleConfiguration
    ) throws(ManifestError) -> any Sendable {
        try configuration.decode(Configuration.self)
    }
}
