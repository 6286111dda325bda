import Foundation
import Testing
import TestSupport
@testable import ModuleHost

/// What the manifest validation suites share: the diagnostics of registering a manifest, and the one of a kind.
protocol ManifestValidationSuite {}

extension ManifestValidationSuite {
    func diagnostics(_ json: String, file: String = "modules.json") -> [ManifestDiagnostic] {
        do {
            try ModuleManager().registerModules(from: Data(json.utf8), file: file)
            return []
        } catch {
            return error.diagnostics
        }
    }

    func only(_ code: ManifestDiagnostic.Code, in json: String) throws -> ManifestDiagnostic {
        let found = diagnostics(json).filter { $0.code == code }
        try #require(found.count == 1, "expected one \(code) diagnostic, got \(diagnostics(json))")
        return found[0]
    }
}
