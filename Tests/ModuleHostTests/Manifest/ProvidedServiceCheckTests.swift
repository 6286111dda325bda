import Foundation
import Testing
@testable import ModuleHost

protocol ConformedService: Sendable {
    func answer() -> Int
}

protocol SecondConformedService: AnyObject, Sendable {}

/// Declares its services from itself, a composition included.
final class ConformsToWhatItListsModule: ModuleProtocol, ConformedService, SecondConformedService {
    static let moduleIdentifier: ModuleIdentifier = "test.provided.conforms"
    static let providedServices: [ProvidedService] = [
        .service(ConformedService.self, from: ConformsToWhatItListsModule.self) { $0 },
        .service((any ConformedService & SecondConformedService).self, from: ConformsToWhatItListsModule.self) { $0 },
    ]
    init(context: any ModuleContext) {}
    func answer() -> Int { 7 }
}

/// Declares a service from another module type, which it is not: the one mistake in a service declaration that the
/// compiler cannot see.
final class WrongAccessorModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.provided.wrong-accessor"
    static let providedServices: [ProvidedService] = [
        .service(SecondConformedService.self, from: ConformsToWhatItListsModule.self) { $0 },
    ]
    init(context: any ModuleContext) {}
}

/// Computes its declarations, and declares its service from another module type from the second read on: what
/// registration checks must be what it registers, so a module's declarations are read once.
final class ChangingDeclarationsModule: ModuleProtocol, ConformedService {
    static let moduleIdentifier: ModuleIdentifier = "test.provided.changing"
    static let reads = Locked(0)
    static var providedServices: [ProvidedService] {
        let read = reads.withLock { count in
            count += 1
            return count
        }
        return read == 1 ? [.service(ConformedService.self, from: ChangingDeclarationsModule.self) { $0 }]
            : [.service(ConformedService.self, from: ConformsToWhatItListsModule.self) { $0 }]
    }
    init(context: any ModuleContext) {}
    func answer() -> Int { 11 }
}

/// Declares the same service twice.
final class TwiceDeclaringModule: ModuleProtocol, ConformedService {
    static let moduleIdentifier: ModuleIdentifier = "test.provided.twice"
    static let providedServices: [ProvidedService] = [
        .service(ConformedService.self, from: TwiceDeclaringModule.self) { $0 },
        .service(ConformedService.self, from: TwiceDeclaringModule.self) { $0 },
    ]
    init(context: any ModuleContext) {}
    func answer() -> Int { 2 }
}

/// A service declaration names its module, so the compiler checks that the module can provide it (the slow lane's
/// `ManifestBuildCheckTests.aServiceTheModuleDoesNotProvideFailsTheBuildAtItsDeclaration` builds a module that stops
/// conforming). What is left to check at run time, a declaration that names another module type, is refused by
/// validation and by every registration, at the module's entry, and costs no question to the Swift runtime.
@Suite("Provided services are checked before anything runs")
struct ProvidedServiceCheckTests {
    private let manifest = Data("""
        {"modules": [
          "ModuleHostTests.ConformsToWhatItListsModule",
          "ModuleHostTests.WrongAccessorModule"
        ]}
        """.utf8)

    @Test func validationReportsAServiceDeclaredFromAnotherModuleType() throws {
        let diagnostics = ModuleManager.forTesting().validateManifest(manifest, file: "modules.json")
        let problems = diagnostics.filter { $0.code == .serviceNotProvided }
        try #require(problems.count == 1, "\(diagnostics)")
        #expect(problems[0].path == "modules[1].type")
        #expect(problems[0].severity == .error)
        #expect(problems[0].message == "ModuleHostTests.WrongAccessorModule declares ModuleHostTests.SecondConformedService from "
            + "ModuleHostTests.ConformsToWhatItListsModule, which it is not, so resolving it would fail")
        #expect(problems[0].location?.line == 3, "located at the module's entry: \(String(describing: problems[0].location))")
        #expect(problems[0].suggestion == "name ModuleHostTests.WrongAccessorModule in the declaration: .service(…, from: ModuleHostTests.WrongAccessorModule.self) { … }")
    }

    @Test func aModuleThatDeclaresItsServicesFromItselfIsValid() {
        let diagnostics = ModuleManager.forTesting().validateManifest(
            Data(#"{"modules": ["ModuleHostTests.ConformsToWhatItListsModule"]}"#.utf8), file: "modules.json")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    /// Registering a manifest refuses it too (it used to register, and fail at the first resolve), and registers
    /// nothing of that manifest.
    @Test func registeringAManifestRefusesIt() throws {
        let manager = ModuleManager.forTesting()
        let error = #expect(throws: ManifestError.self) { try manager.registerModules(from: manifest) }
        #expect(error?.diagnostics.map(\.code) == [.serviceNotProvided])
        #expect(error?.diagnostics.first?.path == "modules[1].type")
        #expect(manager.modules.isEmpty, "nothing registered")
    }

    @Test func registrationInCodeRefusesIt() throws {
        let manager = ModuleManager.forTesting()
        let wrongAccessor = #expect(throws: ManifestError.self) { try manager.register(WrongAccessorModule.self) }
        #expect(wrongAccessor?.diagnostics.map(\.code) == [.serviceNotProvided])
        #expect(wrongAccessor?.diagnostics.first?.path == "register(ModuleHostTests.WrongAccessorModule.self).type")
        #expect(manager.modules.isEmpty, "nothing registered")
        #expect(throws: Never.self) { try manager.register(ConformsToWhatItListsModule.self) }
        #expect(try manager.bridge.resolve((any ConformedService & SecondConformedService).self).answer() == 7)
    }

    /// Found by an outside attack: registration used to read `providedServices` three times and register the third
    /// read, which no pass had checked.
    @Test func aModulesDeclarationsAreReadOnceAndWhatIsCheckedIsWhatIsRegistered() throws {
        let manager = ModuleManager.forTesting()
        try manager.register(ChangingDeclarationsModule.self)
        #expect(ChangingDeclarationsModule.reads.withLock { $0 } == 1)
        #expect(try manager.bridge.resolve(ConformedService.self).answer() == 11)
    }

    /// Found by an outside attack: a module that declared one service twice registered, and the first declaration won.
    @Test func aServiceDeclaredTwiceByOneModuleIsADuplicate() throws {
        let manager = ModuleManager.forTesting()
        let error = #expect(throws: ManifestError.self) { try manager.register(TwiceDeclaringModule.self) }
        #expect(error?.diagnostics.map(\.code) == [.duplicateService])
        #expect(error?.diagnostics.first?.message == "ModuleHostTests.TwiceDeclaringModule declares ModuleHostTests.ConformedService twice; a service has exactly one provider")
        #expect(manager.modules.isEmpty)
    }
}
