/// What loading a manifest's plugin libraries left for validation to know: which entries' libraries were
/// loaded (and from where), and which were refused (already reported, so validation skips those entries).
struct PluginLibraries: Sendable {
    /// The resolved path of each loaded library, by the index of its manifest entry.
    var loaded: [Int: String] = [:]
    /// Indices of the entries whose library was refused.
    var refused: Set<Int> = []
}
