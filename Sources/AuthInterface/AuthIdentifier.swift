import ModuleHost

extension ModuleIdentifier {
    /// The identifier of the module that provides ``AuthService`` (the demo's AuthModule).
    public static let auth: ModuleIdentifier = "com.modulehost.auth"
}
