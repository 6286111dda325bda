import Foundation
import Testing
@testable import ModuleHost

protocol ListedButNotConformed: Sendable {
    func answer() -> Int
}

protocol ConformedService: Sendable {
    func answer() -> Int
}

protocol SecondConformedService: AnyObject, Sendable {}

/// Lists a service it does not conform to: the mistake a new user makes, which registers and fails at resolve.
final class ListsWithoutConformingModule: ModuleProtocol, ConformedService {
    static let moduleIdentifier: ModuleIdentifier = "test.provided.lists-without-conforming"
    static let providedServices: [ProvidedService] = [.service(ConformedService.self), .service(ListedButNotConformed.self)]
    init(context: any ModuleContext) {}
    func answer() -> Int { 42 }
}

/// Conforms to everything it lists, a composition included.
final class ConformsToWhatItListsModule: ModuleProtocol, ConformedService, SecondConformedService {
    static let moduleIdentifier: ModuleIdentifier = "test.provided.conforms"
    static let providedServices: [ProvidedService] = [
        .service(ConformedService.self), .service((any ConformedService & SecondConformedService).self),
    ]
    init(context: any ModuleContext) {}
    func answer() -> Int { 7 }
}

/// Hands a service out through an accessor that takes another module type.
final class WrongAccessorModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.provided.wrong-accessor"
    static let providedServices: [ProvidedService] = [
        .service(SecondConformedService.self, from: ConformsToWhatItListsModule.self) { $0 },
    ]
    init(context: any ModuleContext) {}
}

/// What the start-up path no longer asks the runtime, `validate` checks: a module that lists a
/// service it cannot provide is reported at its entry, by validation only.
@Suite("Provided services are checked by validation")
struct ProvidedServiceCheckTests {
    private let manifest = Data("""
        {"modules": [
          "ModuleHostTests.ConformsToWhatItListsModule",
          "ModuleHostTests.ListsWithoutConformingModule",
          "ModuleHostTests.WrongAccessorModule"
        ]}
        """.utf8)

    @Test func validationReportsAServiceTheModuleDoesNotConformTo() throws {
        let diagnostics = ModuleManager.forTesting().validateManifest(manifest, file: "modules.json")
        let problems = diagnostics.filter { $0.code == .serviceNotProvided }
        try #require(problems.count == 2, "\(diagnostics)")
        #expect(problems[0].path == "modules[1].type")
        #expect(problems[0].severity == .error)
        #expect(problems[0].message.contains("ModuleHostTests.ListsWithoutConformingModule lists ModuleHostTests.ListedButNotConformed"))
        #expect(problems[0].location?.line == 3, "located at the module's entry: \(String(describing: problems[0].location))")
        #expect(problems[0].suggestion == "make ModuleHostTests.ListsWithoutConformingModule conform to ModuleHostTests.ListedButNotConformed, or remove it from providedServices")
        #expect(problems[1].path == "modules[2].type")
        #expect(problems[1].message.contains("SecondConformedService"))
    }

    @Test func aModuleThatConformsToWhatItListsIsValid() {
        let diagnostics = ModuleManager.forTesting().validateManifest(
            Data(#"{"modules": ["ModuleHostTests.ConformsToWhatItListsModule"]}"#.utf8), file: "modules.json")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    /// Registering a manifest does not ask (it is on the start-up path; `validate` does); the first resolve still names
    /// the problem.
    @Test func registrationDoesNotAskAndTheFirstResolveFails() throws {
        let manager = ModuleManager.forTesting()
        try manager.registerModules(from: Data(#"{"modules": ["ModuleHostTests.ListsWithoutConformingModule"]}"#.utf8))
        #expect(throws: ResolutionError.self) { try manager.bridge.resolve(ListedButNotConformed.self) }
        #expect(try manager.bridge.resolve(ConformedService.self).answer() == 42)
    }

    /// A module registered in code names one type, so registration asks: the mistake is refused at once.
    @Test func registrationInCodeRefusesAServiceTheModuleDoesNotAdopt() {
        let manager = ModuleManager.forTesting()
        let error = #expect(throws: ManifestError.self) { try manager.register(ListsWithoutConformingModule.self) }
        let problem = error?.diagnostics.first { $0.code == .serviceNotProvided }
        #expect(problem?.path == "register(ModuleHostTests.ListsWithoutConformingModule.self).type")
        #expect(problem?.message.contains("ListedButNotConformed") == true)
        #expect(manager.modules.isEmpty, "nothing registered")
        #expect(throws: Never.self) { try manager.register(ConformsToWhatItListsModule.self) }
        let wrongAccessor = #expect(throws: ManifestError.self) { try manager.register(WrongAccessorModule.self) }
        #expect(wrongAccessor?.diagnostics.map(\.code) == [.serviceNotProvided])
    }

    @Test func theRuntimeQuestionAgreesWithACast() {
        let module: any ModuleProtocol = ListsWithoutConformingModule(context: ModuleManager())
        #expect(ProtocolConformance.does(ListsWithoutConformingModule.self, conformTo: (any ConformedService).self) == (module is any ConformedService))
        #expect(ProtocolConformance.does(ListsWithoutConformingModule.self, conformTo: (any ListedButNotConformed).self) == (module is any ListedButNotConformed))
        #expect(ProtocolConformance.does(ConformsToWhatItListsModule.self, conformTo: (any ConformedService & SecondConformedService).self) == true)
        #expect(ProtocolConformance.does(ListsWithoutConformingModule.self, conformTo: (any ConformedService & SecondConformedService).self) == false)
        #expect(ProtocolConformance.does(ListsWithoutConformingModule.self, conformTo: Int.self) == nil, "a concrete type cannot be told")
        #expect(ProtocolConformance.does(ListsWithoutConformingModule.self, conformTo: Any.self) == true)
    }
}
