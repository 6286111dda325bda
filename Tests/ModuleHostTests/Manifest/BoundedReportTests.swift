import Foundation
import Testing
@testable import ModuleHost

/// Follow-ups from the fuzzing campaign: hostile manifests get bounded reports and exact reasons.
///
/// Came from Regression/, the fuzzing campaign's follow-ups (added in 7a6a7cd);
/// now filed under the feature it protects.
@Suite("Bounded reports")
struct BoundedReportTests {
    private func errors(_ data: Data) -> [ManifestDiagnostic] {
        do {
            try ModuleManager().registerModules(from: data, file: "modules.json")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func millionsOfWrongEntriesGiveABoundedReport() {
        // A million entries of the wrong type: a million problems, reported as a thousand and a note.
        let json = "{\"modules\": [" + Array(repeating: "1", count: 1_000_000).joined(separator: ",") + "]}"
        let found = errors(Data(json.utf8))
        #expect(found.count == DiagnosticSink.maximumDiagnostics + 1)
        #expect(found.last?.code == .tooManyProblems)
        #expect(found.last?.message == "too many problems; stopped reporting after \(DiagnosticSink.maximumDiagnostics)")
    }

    @Test func thousandsOfUnknownTypeNamesStopAtTheBound() {
        let names = (0..<5000).map { "\"Hostile.Name\($0)\"" }.joined(separator: ",")
        let found = errors(Data("{\"modules\": [\(names)]}".utf8))
        #expect(found.count == DiagnosticSink.maximumDiagnostics + 1)
        #expect(found.last?.code == .tooManyProblems)
    }

    @Test func readingAndValidationShareOneBound() {
        // 600 structural problems (the reader's) and 600 unknown type names (the validator's): one cap for both.
        let wrong = Array(repeating: "1", count: 600)
        let unknown = (0..<600).map { "\"Hostile.Name\($0)\"" }
        let found = errors(Data("{\"modules\": [\((wrong + unknown).joined(separator: ","))]}".utf8))
        #expect(found.count == DiagnosticSink.maximumDiagnostics + 1)
        #expect(found.filter { $0.code == .tooManyProblems }.count == 1)
        #expect(found.contains { $0.code == .unknownType })
    }

    @Test func hugeWhitespaceIsTooLargeNotEmpty() {
        let found = errors(Data(repeating: 0x20, count: ManifestReader.maximumFileSize + 1))
        #expect(found.map(\.code) == [.fileTooLarge])
    }

    @Test(arguments: ["10FuzzTarget11AlphaModuleC", "Auth Module.AuthModule", "AuthModule.", ".AuthModule", "Auth-Module.X"])
    func namesThatAreNotSwiftTypeNamesAreRejected(name: String) {
        let found = errors(Data(#"{"modules": ["\#(name)"]}"#.utf8))
        #expect(found.map(\.code) == [.invalidValue])
        #expect(found.first?.message.contains("expected Swift identifiers joined by dots") == true)
    }
}
