import ModuleHost
import Synchronization

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
    static let made = Mutex<[String: Int]>([:])
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
    init() { Instances.record("privacy") }
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
    init() { Instances.record("display") }
}

/// Contributes nothing.
final class PaneQuietModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.quiet"
    init() { Instances.record("quiet") }
}

/// Contributes a pane titled like the privacy module's.
final class PaneClashModule: ModuleProtocol, TestPane {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.clash"
    static let contributions: [Contribution] = [.module(PaneClashModule.self, to: .panes, key: "Privacy") { $0 }]
    let title = "Privacy too"
    init() {}
}

/// Contributes to a point nobody declares, with a name close to a declared one.
final class PaneUnknownPointModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.unknown"
    static let contributions: [Contribution] = [Contribution(to: ExtensionPoint<String>("test.pane"), "x")]
    init() {}
}

/// Contributes a string to the panes point.
final class PaneMistypedModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.mistyped"
    static let contributions: [Contribution] = [Contribution(to: ExtensionPoint<String>("test.panes"), "Privacy")]
    init() {}
}

/// The seed's protocol with no contributions of its own: its operation is contributed for it.
final class SeedOnlyModule: ModuleProtocol, ModuleInitiatorProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.seed-only"
    static var identifier: String { "ext.seed-only" }
    static var priority: StartupPriority { .low }
    static var operation: StartupOperationBody { {} }
    init() {}
}

/// The seed's protocol and contributions that list its operation.
final class SeedListedModule: ModuleProtocol, ModuleInitiatorProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.seed-listed"
    static let contributions: [Contribution] = [initiatorOperation, Contribution(to: .notes, "seed")]
    static var identifier: String { "ext.seed-listed" }
    static var priority: StartupPriority { .low }
    static var operation: StartupOperationBody { {} }
    init() {}
}

/// The seed's protocol and contributions that leave its operation out.
final class SeedForgottenModule: ModuleProtocol, ModuleInitiatorProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.ext.seed-forgotten"
    static let contributions: [Contribution] = [Contribution(to: .notes, "forgot")]
    static var identifier: String { "ext.seed-forgotten" }
    static var priority: StartupPriority { .low }
    static var operation: StartupOperationBody { {} }
    init() {}
}
