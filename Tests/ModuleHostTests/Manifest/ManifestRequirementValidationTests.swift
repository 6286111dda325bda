import Foundation
import Testing
import TestSupport
@testable import ModuleHost

/// Problems between entries: two modules with one identifier or one service, a requirement no entry provides or
/// whose entry is disabled, requirements in a cycle.
@Suite("Manifest validation: identifiers, services and requirements")
struct ManifestRequirementValidationTests: ManifestValidationSuite {
    @Test func duplicateIdentifiersNameBothTypes() throws {
        let diagnostic = try only(.duplicateIdentifier, in: """
            {"modules": ["ModuleHostTests.BaseModule", "ModuleHostTests.GreeterModule", "ModuleHostTests.GreeterImpostorModule"]}
            """)
        #expect(diagnostic.message.contains("ModuleHostTests.GreeterImpostorModule"))
        #expect(diagnostic.message.contains("ModuleHostTests.GreeterModule"))
        #expect(diagnostic.message.contains("\"test.greeter\""))
        #expect(diagnostic.path == "modules[2].type")
    }

    @Test func twoProvidersOfOneService() throws {
        let diagnostic = try only(.duplicateService, in: """
            {"modules": ["ModuleHostTests.BaseModule", "ModuleHostTests.GreeterModule", "ModuleHostTests.OtherGreeterModule"]}
            """)
        #expect(diagnostic.message.contains("ModuleHostTests.GreetingService"))
        #expect(diagnostic.message.contains("\"test.greeter\" already provides"))
    }

    @Test func missingRequirement() throws {
        let diagnostic = try only(.missingRequirement, in: #"{"modules": ["ModuleHostTests.GreeterModule"]}"#)
        #expect(diagnostic.message == "ModuleHostTests.GreeterModule requires module \"test.base\", which no entry provides")
        #expect(diagnostic.path == "modules[0]")
    }

    @Test func missingRequirementSuggestsClosestIdentifier() throws {
        let diagnostic = try only(.missingRequirement, in: """
            {"modules": ["ModuleHostTests.BaseModule", "ModuleHostTests.GreeterModule", "ModuleHostTests.NeedsMissingModule"]}
            """)
        #expect(diagnostic.suggestion == "did you mean \"test.greeter\"?")
    }

    @Test func disabledRequirement() throws {
        let diagnostic = try only(.disabledRequirement, in: """
            {"modules": [{"type": "ModuleHostTests.BaseModule", "enabled": false}, "ModuleHostTests.GreeterModule"]}
            """)
        #expect(diagnostic.message.contains("requires module \"test.base\", but its entry modules[0] (ModuleHostTests.BaseModule) is disabled"))
    }

    @Test func requirementCycleIsPrinted() throws {
        let diagnostic = try only(.dependencyCycle, in: #"{"modules": ["ModuleHostTests.RequiresAModule", "ModuleHostTests.RequiresBModule"]}"#)
        #expect(diagnostic.message == "modules require each other in a cycle: test.requires.a -> test.requires.b -> test.requires.a")
    }
}
