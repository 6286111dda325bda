/// What checking a manifest's plugin libraries left for validation to know: which entries' libraries were loaded
/// (and from where), which were only inspected (validation: their types cannot be looked up), and which were
/// refused (already reported, so validation skips those entries).
struct PluginLibraries: Sendable {
    /// The resolved path of each loaded library, by the index of its manifest entry.
    var loaded: [Int: String] = [:]
    /// The resolved path of each library that passed inspection but was not loaded, by the index of its entry.
    var inspected: [Int: String] = [:]
    /// Indices of the entries whose library was refused.
    var refused: Set<Int> = []
}
