import Foundation
import ModuleHost
import Testing

/// Error codes are values that can grow: a code that a later version adds reaches a host written against this one
/// intact, and the host's `switch` (which needs a `default`) still compiles and handles it.
@Suite("Growable error codes")
struct GrowableCodeTests {
    /// A host's reaction to a manifest problem, written as hosts write it: known codes first, then a `default`.
    private func reaction(to code: ManifestDiagnostic.Code) -> String {
        switch code {
        case .fileNotFound: "create the manifest"
        case .malformedJSON, .wrongType: "fix the JSON"
        default: "read the message (\(code.rawValue))"
        }
    }

    /// Decodes `json` as an array of codes, checks the one code is unknown, and that it encodes back unchanged.
    private func expectUnknownCodeRoundTrips<Code: Codable & Hashable & RawRepresentable>(
        _: Code.Type, known: [Code]
    ) throws -> Code where Code.RawValue == String {
        let json = #"["addedInALaterVersion"]"#
        let decoded = try JSONDecoder().decode([Code].self, from: Data(json.utf8))
        let code = try #require(decoded.first)
        #expect(decoded.count == 1)
        #expect(code.rawValue == "addedInALaterVersion")
        #expect(!known.isEmpty)
        for other in known {
            #expect(code != other, "\(code.rawValue) equals the known code \(other.rawValue)")
        }
        let encoded = try JSONEncoder().encode([code])
        #expect(String(decoding: encoded, as: UTF8.self) == json)
        #expect(try JSONDecoder().decode([Code].self, from: encoded) == [code])
        return code
    }

    @Test func unknownManifestCodeRoundTripsAndEqualsNoKnownCode() throws {
        let code = try expectUnknownCodeRoundTrips(ManifestDiagnostic.Code.self, known: ManifestDiagnostic.Code.allCases)
        #expect(!ManifestDiagnostic.Code.allCases.contains(code))
        #expect("\(code)" == "addedInALaterVersion")
        #expect(reaction(to: code) == "read the message (addedInALaterVersion)")
        #expect(reaction(to: .fileNotFound) == "create the manifest")
        #expect(reaction(to: ManifestDiagnostic.Code(rawValue: "wrongType")) == "fix the JSON")
    }

    @Test func unknownStartupCodesRoundTripAndEqualNoKnownCode() throws {
        _ = try expectUnknownCodeRoundTrips(InitiatorError.Code.self, known: [
            .alreadyStarted, .addedAfterStart, .operationSourceFailed, .requiredOperationFailed, .cancelled, .invalidPlan,
        ])
        _ = try expectUnknownCodeRoundTrips(InitiatorError.Problem.Code.self, known: [
            .emptyIdentifier, .duplicateIdentifier, .unknownDependency, .laterPhaseDependency, .cycle,
        ])
    }

    @Test func knownCodesKeepTheirNames() {
        let names = ManifestDiagnostic.Code.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count)
        #expect(names.first == "fileNotFound")
        #expect(names.last == "tooManyProblems")
        for code in ManifestDiagnostic.Code.allCases {
            #expect(ManifestDiagnostic.Code(rawValue: code.rawValue) == code)
        }
        #expect(ModuleCommandError.Code.allCases.map(\.rawValue) == [
            "usage", "unknownCommand", "moduleUnavailable", "permissionDenied", "inputEnded", "failed",
        ])
        #expect(ResolutionError.Code.unknownModule.rawValue == "unknownModule")
        #expect(InitiatorError.Code.invalidPlan.rawValue == "invalidPlan")
    }

    /// An invalid plan is an `InitiatorError` with code `invalidPlan`, every problem, and the former text.
    @Test func invalidPlanIsAnInitiatorErrorListingEveryProblem() async throws {
        let initiator = Initiator()
        try initiator.add("a", priority: .high, dependencies: ["missing"]) {}
        try initiator.add("b", priority: .high) {}
        try initiator.add("b", priority: .low) {}
        let error = try await #require(throws: InitiatorError.self) { try await initiator.start() }
        #expect(error.code == .invalidPlan)
        #expect(error.report == nil)
        #expect(error.problems.map(\.code) == [.duplicateIdentifier, .unknownDependency])
        let lines = error.problems.map { "  - \($0.message)" }
        #expect(error.description == (["invalid startup plan (2 problems):"] + lines).joined(separator: "\n"))
        #expect(error.message == error.description)
    }

    @Test func otherInitiatorErrorsHaveNoProblems() async throws {
        let initiator = Initiator()
        try await initiator.start()
        let error = try await #require(throws: InitiatorError.self) { try await initiator.start() }
        #expect(error.code == .alreadyStarted)
        #expect(error.problems.isEmpty)
    }
}
