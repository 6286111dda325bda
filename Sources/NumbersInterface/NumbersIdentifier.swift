import ModuleHost

extension ModuleIdentifier {
    /// The identifier of the module that provides ``NumberFactService`` (the demo's NumbersModule).
    public static let numbers: ModuleIdentifier = "com.modulehost.numbers"
}
