/// A manifest that cannot be used, with every problem found in it.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// The manifest's path as given, or `nil` for in-memory data.
    package let file: String?
    /// Every diagnostic found, errors and warnings, in file order.
    public let diagnostics: [ManifestDiagnostic]

    /// Creates an error from its diagnostics.
    package init(file: String?, diagnostics: [ManifestDiagnostic]) {
        self.file = file
        self.diagnostics = diagnostics
    }

    /// Only the diagnostics that are errors.
    package var errors: [ManifestDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// One diagnostic per line, then a count: `2 errors in modules.json`.
    public var description: String {
        (diagnostics.map(\.description) + [summary]).joined(separator: "\n")
    }

    /// One line that counts the errors: `2 errors in modules.json`.
    package var summary: String {
        let count = errors.count
        return "\(count) error\(count == 1 ? "" : "s") in \(file ?? "the manifest")"
    }
}
