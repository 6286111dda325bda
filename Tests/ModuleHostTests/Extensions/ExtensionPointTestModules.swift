import ModuleHost
import protocol ModuleHostSeed.ModuleInitiatorProtocol

/// The app-defined point the tests contribute to: settings panes, keyed by title.
protocol TestPane: Sendable {
    var title: String { get }
}

extension ExtensionPoint where Value == any TestPane {
    static var panes: Self { ExtensionPoint("test.panes", requiresUniqueKeys: true) }
}

extension ExtensionPoint where Value == String {
    /// A point of plain values, whose keys may repeat.
    static var notes: Self { ExtensionPoint("test.notes") }
}

/// Counts how many times each test module type was made.
enum Instances {
    static let made = Locked<[String: Int]>([:])
    static func count(_ name: String) -> Int { made.withLock { $0[name, default: 0] } }
    static func record(_ name: String) { made.withLock { $0[name, default: 0] += 1 } }
}

/// Contributes itself as a pane, a note, and a command.
final class PanePrivacyModule: ModuleProtocol, TestPane {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.privacy"
    static let contributions: [Contribution] = [
        .module(PanePrivacyModule.self, to: .panes, key: "Privacy") { $0 },
        Contribution(to: .notes, "privacy note"),
        .command(ModuleCommand("ext-privacy", summary: "a command contributed like any other") { _ in .text("private") }),
    ]
    let title = "Privacy"
    init(context: any ModuleContext) { Instances.record("privacy") }
}

/// Contributes itself as a pane, and a note with the same text as another module's (notes may repeat).
final class PaneDisplayModule: ModuleProtocol, TestPane {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.display"
    static let requiredModules: [ModuleIdentifier] = ["test.ext.quiet"]
    static let contributions: [Contribution] = [
        Contribution(to: .notes, "privacy note"),
        .module(PaneDisplayModule.self, to: .panes, key: "Display") { $0 },
    ]
    let title = "Display"
    init(context: any ModuleContext) { Instances.record("display") }
}

/// Contributes nothing.
final class PaneQuietModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.quiet"
    init(context: any ModuleContext) { Instances.record("quiet") }
}

/// Contributes a pane titled like the privacy module's.
final class PaneClashModule: ModuleProtocol, TestPane {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.clash"
    static let contributions: [Contribution] = [.module(PaneClashModule.self, to: .panes, key: "Privacy") { $0 }]
    let title = "Privacy too"
    init(context: any ModuleContext) {}
}

/// Contributes to a point nobody declares, with a name close to a declared one.
final class PaneUnknownPointModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.unknown"
    static let contributions: [Contribution] = [Contribution(to: ExtensionPoint<String>("test.pane"), "x")]
    init(context: any ModuleContext) {}
}

/// Contributes a string to the panes point.
final class PaneMistypedModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.mistyped"
    static let contributions: [Contribution] = [Contribution(to: ExtensionPoint<String>("test.panes"), "Privacy")]
    init(context: any ModuleContext) {}
}

/// The seed's protocol with no contributions of its own: its operation is contributed for it.
final class SeedOnlyModule: ModuleProtocol, ModuleInitiatorProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.seed-only"
    static var identifier: String { "ext.seed-only" }
    static var priority: ModuleStartupOperation.Priority { .low }
    static var operation: StartupOperationBody { {} }
    init(context: any ModuleContext) {}
}

/// The seed's protocol and contributions of its own: the host adds the seed's operation ahead of them.
final class SeedAndContributionsModule: ModuleProtocol, ModuleInitiatorProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.seed-and-contributions"
    static let contributions: [Contribution] = [
        Contribution(to: .notes, "seed"),
        .startupOperation(ModuleStartupOperation("ext.seed-and-contributions.more", priority: .low) { _ in }),
    ]
    static var identifier: String { "ext.seed-and-contributions" }
    static var priority: ModuleStartupOperation.Priority { .low }
    static var operation: StartupOperationBody { {} }
    init(context: any ModuleContext) {}
}

/// Contributes another module, which contributes nothing, as its own pane.
final class PaneHijackerModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.hijacker"
    static let contributions: [Contribution] = [.module(PaneQuietPaneModule.self, to: .panes, key: "Quiet") { $0 }]
    init(context: any ModuleContext) {}
}

/// A pane that contributes nothing.
final class PaneQuietPaneModule: ModuleProtocol, TestPane {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.quiet-pane"
    let title = "Quiet"
    init(context: any ModuleContext) { Instances.record("quiet-pane") }
}

/// Two modules whose panes share a key, for registrations that race.
final class PaneRaceAModule: ModuleProtocol, TestPane {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.race-a"
    static let contributions: [Contribution] = [.module(PaneRaceAModule.self, to: .panes, key: "Same") { $0 }]
    let title = "A"
    init(context: any ModuleContext) {}
}

final class PaneRaceBModule: ModuleProtocol, TestPane {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.race-b"
    static let contributions: [Contribution] = [.module(PaneRaceBModule.self, to: .panes, key: "Same") { $0 }]
    let title = "B"
    init(context: any ModuleContext) {}
}

/// Contributions that change from one read to the next: clean on the first read, a duplicate key after.
final class ShiftingContributionsModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.shifting"
    static let reads = Locked(0)
    static var contributions: [Contribution] {
        let read = reads.withLock { $0 += 1; return $0 }
        return read == 1 ? [Contribution(to: .notes, "clean")]
            : [Contribution(to: ExtensionPoint<String>("test.never-declared"), "smuggled")]
    }
    init(context: any ModuleContext) {}
}

extension ExtensionPoint where Value == String {
    /// A library's point (it carries a check, so no host declares it) whose keys must be unique; its check reports,
    /// as a warning, how many entries it saw.
    static var libraryUnique: Self {
        ExtensionPoint("modulehost.test-unique", requiresUniqueKeys: true, check: ContributionCheck { entries, _, sink in
            sink.report(.warning, .invalidContribution, path: "", location: nil, "the library's check saw \(entries.count) entries")
        })
    }
}

/// Contributes the key "k" to a library's point that requires unique keys.
final class LibraryKeyFirstModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.library.first"
    static let contributions: [Contribution] = [Contribution(to: .libraryUnique, "first", key: "k")]
    init(context: any ModuleContext) {}
}

/// Contributes the same key to the same point.
final class LibraryKeySecondModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.library.second"
    static let contributions: [Contribution] = [Contribution(to: .libraryUnique, "second", key: "k")]
    init(context: any ModuleContext) {}
}
