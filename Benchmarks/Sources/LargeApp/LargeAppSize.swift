// The large app's module types are generated when this target builds (the LargeAppSources plugin runs
// Sources/LargeAppGenerator): LargeModule0000 … LargeModule0999, each with its service protocol.

/// The size of the generated app.
public enum LargeAppSize {
    /// How many module types are generated.
    public static let modules = 1_000
}
