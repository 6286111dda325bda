extension ModuleBridge {
    /// A service protocol and the module that provides it, for listings such as `app-shell services`.
    public struct ServiceDescription: Sendable, Hashable, Codable {
        /// The service type's full name, such as `AuthModule.AuthService`.
        public let name: String
        /// The identifier of the module that provides it.
        public let provider: ModuleIdentifier
    }
}
