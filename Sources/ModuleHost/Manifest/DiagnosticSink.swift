/// Collects the diagnostics of one manifest through every stage (reading, plugin checks, validation) and owns
/// the one cap on how many are kept.
///
/// Past ``maximumDiagnostics`` a hostile manifest gets a single "too many problems" note and nothing more, so
/// the report and the memory it takes stay bounded whatever the input. Stages check ``isFull`` to stop early.
package struct DiagnosticSink {
    /// The most diagnostics kept; the "too many problems" note comes after them.
    static let maximumDiagnostics = 1000

    /// The manifest file the diagnostics name.
    let file: String?
    /// The diagnostics kept so far, in the order reported.
    private(set) var diagnostics: [ManifestDiagnostic] = []
    /// Whether the cap was reached: later reports are dropped and stages may stop.
    package private(set) var isFull = false

    init(file: String?) {
        self.file = file
    }

    /// Whether an error (not only warnings) has been reported.
    var hasErrors: Bool {
        diagnostics.contains { $0.severity == .error }
    }

    /// Reports a problem at `path` and `location` of the manifest.
    package mutating func report(_ severity: ManifestDiagnostic.Severity, _ code: ManifestDiagnostic.Code, path: String,
                         location: ManifestDiagnostic.Location?, _ message: String, suggestion: String? = nil) {
        append(ManifestDiagnostic(severity, code, file: file, path: path, location: location, message: message,
                                  suggestion: suggestion))
    }

    /// Keeps `diagnostic` unless the cap is reached; the first one over it adds the "too many problems" note.
    mutating func append(_ diagnostic: ManifestDiagnostic) {
        guard !isFull else { return }
        guard diagnostics.count < Self.maximumDiagnostics else {
            isFull = true
            diagnostics.append(ManifestDiagnostic(
                .error, .tooManyProblems, file: file, path: "", location: nil,
                message: "too many problems; stopped reporting after \(Self.maximumDiagnostics)"))
            return
        }
        diagnostics.append(diagnostic)
    }

    /// Keeps each of `diagnostics`, up to the cap.
    mutating func append(contentsOf diagnostics: some Sequence<ManifestDiagnostic>) {
        for diagnostic in diagnostics {
            append(diagnostic)
        }
    }
}
