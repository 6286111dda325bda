import Foundation
import ModuleHost
import Testing

@Suite("Extension points")
struct ExtensionPointTests {
    static let types: [any ModuleProtocol.Type] = [
        PanePrivacyModule.self, PaneDisplayModule.self, PaneQuietModule.self, PaneClashModule.self,
        PaneUnknownPointModule.self, PaneMistypedModule.self, SeedOnlyModule.self, SeedAndContributionsModule.self,
    ]

    static func manager(declaring: Bool = true) -> ModuleManager {
        let manager = ModuleManager(typeResolver: .types(types))
        if declaring {
            manager.declare(.panes)
            manager.declare(.notes)
        }
        return manager
    }

    static func manifest(_ names: [String]) -> Data {
        Data("{\"modules\": [\(names.map { "\"ModuleHostTests.\($0)\"" }.joined(separator: ", "))]}".utf8)
    }

    @Test func contributionsAreEnumeratedInManifestOrderWithoutInstantiatingAnything() throws {
        let manager = Self.manager()
        try manager.registerModules(from: Self.manifest(["PaneQuietModule", "PaneDisplayModule", "PanePrivacyModule"]))
        let panes = manager.extensions(of: .panes)
        #expect(panes.map(\.module) == ["test.ext.display", "test.ext.privacy"])
        #expect(panes.map(\.key) == ["Display", "Privacy"])
        #expect(panes.allSatisfy { $0.instantiatesModule })
        let notes = manager.extensions(of: .notes)
        #expect(try notes.map { try $0.value() } == ["privacy note", "privacy note"], "keys of a point that allows it may repeat")
        #expect(!notes.contains { $0.instantiatesModule })
        #expect(manager.loadedModules().isEmpty, "reading contributions and their values instantiated a module")
    }

    @Test func aContributionsValueInstantiatesItsModuleAndWhatItRequiresOnly() throws {
        let manager = Self.manager()
        try manager.registerModules(from: Self.manifest(["PaneQuietModule", "PaneDisplayModule", "PanePrivacyModule"]))
        let display = try #require(manager.extensions(of: .panes).first)
        #expect(try display.value().title == "Display")
        let loaded = Set(manager.loadedModules().map { type(of: $0).moduleIdentifier })
        #expect(loaded == ["test.ext.display", "test.ext.quiet"], "the required module loads first; the other contributor does not")
        #expect(try display.value().title == "Display")
        #expect(manager.loadedModules().count == 2, "asking again makes nothing new")
    }

    @Test func theLibrarysOwnPointsAreEnumeratedLikeAnyOther() throws {
        let manager = Self.manager()
        try manager.registerModules(from: Self.manifest(["PanePrivacyModule", "SeedOnlyModule", "SeedAndContributionsModule"]))
        #expect(try manager.extensions(of: ModuleCommand.point).map { try $0.value().name } == ["ext-privacy"])
        #expect(manager.moduleCommands().map(\.command.name) == ["ext-privacy"])
        let operations = try manager.extensions(of: ModuleStartupOperation.point).map { try $0.value().identifier }
        #expect(operations == ["ext.seed-only", "ext.seed-and-contributions", "ext.seed-and-contributions.more"],
                "the seed's operation is contributed with or without contributions of its own")
        #expect(manager.loadedModules().isEmpty)
    }

    @Test func validationReportsAnUnknownPointATypeMismatchAndADuplicateKeyAtTheEntry() throws {
        let manager = Self.manager()
        let diagnostics = manager.validateManifest(
            Self.manifest(["PanePrivacyModule", "PaneClashModule", "PaneUnknownPointModule", "PaneMistypedModule"]),
            file: "modules.json")
        let byCode = Dictionary(grouping: diagnostics, by: \.code)
        let duplicate = try #require(byCode[.invalidContribution]?.first)
        #expect(duplicate.path == "modules[1].type")
        #expect(duplicate.message.contains("ModuleHostTests.PaneClashModule") && duplicate.message.contains("ModuleHostTests.PanePrivacyModule"))
        let unknown = try #require(byCode[.unknownExtensionPoint]?.first)
        #expect(unknown.path == "modules[2].type")
        #expect(unknown.suggestion == "did you mean \"test.panes\"?")
        let mismatch = try #require(byCode[.contributionTypeMismatch]?.first)
        #expect(mismatch.path == "modules[3].type")
        #expect(mismatch.message.contains("Swift.String") && mismatch.message.contains("ModuleHostTests.TestPane"), "\(mismatch.message)")
        #expect(diagnostics.count == 3, "\(diagnostics)")
    }

    /// A library's point (routes are one) gets every check a host's point gets, its keys too, besides
    /// its own check, which runs once over the manifest. Found by an outside review: its unique keys went unchecked.
    @Test func aLibrarysPointNeedsNoDeclarationAndItsKeysAreCheckedAsAnyPoints() throws {
        let manager = ModuleManager()
        let diagnostics = manager.validateManifest(Self.manifest(["LibraryKeyFirstModule", "LibraryKeySecondModule"]),
                                                   file: "modules.json")
        #expect(!diagnostics.contains { $0.code == .unknownExtensionPoint }, "\(diagnostics)")
        let duplicate = diagnostics.filter { $0.code == .invalidContribution && $0.severity == .error }
        #expect(duplicate.count == 1 && duplicate.first?.path == "modules[1].type", "\(diagnostics)")
        #expect(diagnostics.filter { $0.message == "the library's check saw 2 entries" }.count == 1, "\(diagnostics)")
        try manager.registerModules(from: Self.manifest(["LibraryKeyFirstModule"]))
        #expect(throws: ManifestError.self) { try manager.register(LibraryKeySecondModule.self) }
    }

    @Test func registrationRefusesTheSameProblemsAndADuplicateAgainstWhatIsRegistered() throws {
        let manager = Self.manager()
        try manager.registerModules(from: Self.manifest(["PanePrivacyModule"]))
        #expect(throws: ManifestError.self) { try manager.registerModules(from: Self.manifest(["PaneClashModule"])) }
        do {
            try manager.register(PaneClashModule.self)
            Issue.record("a duplicate key registered in code")
        } catch {
            #expect(error.diagnostics.map(\.code) == [.invalidContribution])
        }
        #expect(throws: ManifestError.self) { try manager.register(PaneMistypedModule.self) }
        #expect(manager.modules.map(\.identifier) == ["test.ext.privacy"])
    }

    @Test func aPointTheHostDidNotDeclareIsUnknown() throws {
        let diagnostics = Self.manager(declaring: false).validateManifest(Self.manifest(["PaneQuietModule", "PaneDisplayModule"]))
        #expect(diagnostics.map(\.code) == [.unknownExtensionPoint, .unknownExtensionPoint])
    }

    @Test func aNameHoldsOnePointType() {
        let manager = Self.manager()
        #expect(manager.declare(.panes), "declaring the same point again is harmless")
        #expect(!manager.declare(ExtensionPoint<Int>("test.panes")))
        #expect(!manager.declare(ExtensionPoint<any TestPane>("test.panes", requiresUniqueKeys: false)))
        #expect(!manager.declare(ExtensionPoint<Int>(ModuleCommand.point.name)), "the library's own points are declared")
    }

    @Test func aValueAskedForAfterTheManagerIsGoneIsAnError() throws {
        var manager: ModuleManager? = Self.manager()
        try manager?.registerModules(from: Self.manifest(["PanePrivacyModule"]))
        let pane = try #require(manager?.extensions(of: .panes).first)
        manager = nil
        #expect(throws: ResolutionError.self) { try pane.value() }
    }
}

/// Came from an outside attack on extension points: a module contributing another module, registrations racing for
/// a unique key, contributions that change between reads, and the seed's operation left out.
@Suite("Extension points, attacked")
struct ExtensionPointAttackTests {
    @Test func aModuleThatContributesAnotherModuleIsRefused() throws {
        let manager = ModuleManager(typeResolver: .types([PaneHijackerModule.self, PaneQuietPaneModule.self]))
        manager.declare(.panes)
        let diagnostics = manager.validateManifest(ExtensionPointTests.manifest(["PaneHijackerModule", "PaneQuietPaneModule"]))
        #expect(diagnostics.map(\.code) == [.invalidContribution])
        #expect(diagnostics.first?.path == "modules[0].type")
        #expect(diagnostics.first?.message.contains("ModuleHostTests.PaneQuietPaneModule") == true)
        #expect(throws: ManifestError.self) { try manager.register(PaneHijackerModule.self) }
        #expect(Instances.count("quiet-pane") == 0)
    }

    @Test func registrationsRacingForAUniqueKeyCannotBothWin() async throws {
        for _ in 0..<200 {
            let manager = ExtensionPointTests.manager()
            let registered = await withTaskGroup(of: Bool.self) { group in
                for type in [PaneRaceAModule.self, PaneRaceBModule.self] as [any ModuleProtocol.Type] {
                    group.addTask { (try? manager.register(type)) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(registered == 1)
            #expect(manager.extensions(of: .panes).count == 1)
        }
    }

    @Test func theContributionsRegisteredAreTheOnesValidated() throws {
        let manager = ModuleManager(typeResolver: .types([ShiftingContributionsModule.self]))
        manager.declare(.notes)
        try manager.registerModules(from: ExtensionPointTests.manifest(["ShiftingContributionsModule"]))
        #expect(ShiftingContributionsModule.reads.withLock { $0 } == 1, "contributions are read once per registration")
        #expect(try manager.extensions(of: .notes).map { try $0.value() } == ["clean"])
    }

    @Test func theSeedsOperationIsContributedEvenWithContributionsOfTheModulesOwn() throws {
        let manager = ExtensionPointTests.manager()
        #expect(manager.validateManifest(ExtensionPointTests.manifest(["SeedAndContributionsModule"])).isEmpty)
        try manager.register(SeedAndContributionsModule.self)
        let operations = try manager.extensions(of: ModuleStartupOperation.point).map { try $0.value().identifier }
        #expect(operations == ["ext.seed-and-contributions", "ext.seed-and-contributions.more"])
        #expect(try manager.extensions(of: .notes).map { try $0.value() } == ["seed"])
    }
}
