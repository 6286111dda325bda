// The shared-configuration app's module types are generated when this target builds (the LargeAppSources plugin
// runs Sources/LargeAppGenerator with --shared): SharedModule0000 … SharedModule0999, each with its service protocol,
// all reading SharedModuleConfiguration.

/// The size of the generated app.
public enum SharedConfigAppSize {
    /// How many module types are generated.
    public static let modules = 1_000
}
