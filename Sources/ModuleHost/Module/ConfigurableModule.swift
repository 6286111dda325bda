/// A module that reads a typed `config` object from its manifest entry.
///
/// The manager decodes the config when the manifest is registered, so a config that does not decode is
/// reported by validation (with its JSON path and line), before anything starts. Read it with
/// ``ModuleContext/configuration(for:)``:
///
/// ```swift
/// public init(context: any ModuleContext) throws {
///     settings = try context.configuration(for: Self.self)
/// }
/// ```
/// A manifest entry without `config` is decoded from an empty object, so a `Configuration` whose fields all
/// have defaults needs no config at all.
public protocol ConfigurableModule: ModuleProtocol {
    /// The module's configuration, decoded from its manifest entry's `config` object.
    associatedtype Configuration: Decodable & Sendable
}

extension ConfigurableModule {
    /// ``Configuration``, for the host.
    public static var _configurationType: (any (Decodable & Sendable).Type)? { Configuration.self }
}
