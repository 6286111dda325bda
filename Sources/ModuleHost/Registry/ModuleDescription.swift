/// A registered module as the manager sees it: for listings such as `app-shell modules`.
public struct ModuleDescription: Sendable, Hashable, Codable {
    /// Where the module is in its life.
    public enum State: String, Sendable, Hashable, Codable {
        /// Registered, not yet instantiated.
        case registered
        /// Being instantiated right now.
        case loading
        /// Instantiated and `moduleDidLoad` succeeded.
        case loaded
        /// Instantiation or `moduleDidLoad` failed; ``ModuleDescription/failure`` says why.
        case failed
        /// Replaced by an injected instance.
        case injected
    }

    /// The module's identifier.
    public let identifier: ModuleIdentifier
    /// The module's type name.
    public let typeName: String
    /// The names of the service protocols it provides.
    public let services: [String]
    /// The modules it requires.
    public let requiredModules: [ModuleIdentifier]
    /// Whether it is instantiated when startup begins.
    public let eager: Bool
    /// Where it was registered: a manifest path and entry, or `code`.
    package let origin: String
    /// Its current state.
    public let state: State
    /// Why it failed, when ``state`` is ``State/failed``.
    public let failure: String?
}
