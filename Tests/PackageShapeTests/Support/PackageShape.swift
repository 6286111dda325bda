import Foundation

/// The role of each target of the package, and the dependency rules between roles:
///
/// - `ModuleHost` is the library every module builds on;
/// - `ModuleHostState` (state files and the host's environment) and `ModuleHostRouting` (the router) are libraries
///   built on ModuleHost alone, which implementation targets and the shell may use, and interface targets may not;
/// - machinery targets (`ModuleHostJSON`, `ModuleHostBinaryImage`, `ModuleHostSystemLibraries`, `ModuleHostRendering`) are no products: the
///   JSON reader, the plugin-image readers, the system's libraries and the renderers, each with its contract in `CONTRACT.md`. They
///   depend on no other target but machinery; the host, the libraries built on it, implementations and the shell
///   may use them;
/// - interface targets (regular targets named `…Interface`) hold service protocols, identifiers and value types;
///   they depend on ModuleHost and other interface targets only;
/// - implementation targets (every other regular target) depend on ModuleHost, system libraries and interface
///   targets only, never on another implementation target;
/// - the `AppShell` executable depends on ModuleHost and implementation targets (so they are linked and found by
///   name at run time) and nothing else.
///
/// Adding a module the README way (an `XModule` target, optionally an `XInterface` target, and `XModule` in
/// AppShell's dependencies) keeps every rule.
struct PackageShape: Sendable {
    static let host = "ModuleHost"
    /// The libraries built on ModuleHost for modules and shells.
    static let hostLibraries: Set<String> = ["ModuleHostState", "ModuleHostRouting"]
    static let shell = "AppShell"
    /// The machinery: targets that are not products, under the host.
    static let machinery: Set<String> = ["ModuleHostJSON", "ModuleHostBinaryImage", "ModuleHostSystemLibraries", "ModuleHostRendering"]

    enum Role: Sendable, Equatable, CustomStringConvertible {
        case host, hostLibrary, machinery, interface, implementation, systemLibrary
        /// An executable, test, plugin, macro or binary target.
        case other(type: String)
        /// A product of another package, or a name that is no target of this package.
        case notATarget

        var description: String {
            switch self {
            case .host: "the host library"
            case .hostLibrary: "library built on the host"
            case .machinery: "machinery target"
            case .interface: "interface target"
            case .implementation: "implementation target"
            case .systemLibrary: "system library"
            case .other(let type): "\(type) target"
            case .notATarget: "not a target of this package"
            }
        }
    }

    let targets: [PackageDump.Target]

    init(_ dump: PackageDump) { targets = dump.targets }

    func role(of name: String) -> Role {
        guard let target = targets.first(where: { $0.name == name }) else { return .notATarget }
        switch target.type {
        case "regular" where name == Self.host: return .host
        case "regular" where Self.hostLibraries.contains(name): return .hostLibrary
        case "regular" where Self.machinery.contains(name): return .machinery
        case "regular" where name.hasSuffix("Interface"): return .interface
        case "regular": return .implementation
        case "system": return .systemLibrary
        default: return .other(type: target.type)
        }
    }

    func role(of dependency: PackageDump.Dependency) -> Role {
        dependency.kind == .product ? .notATarget : role(of: dependency.name)
    }

    func names(_ role: Role) -> [String] { targets.map(\.name).filter { self.role(of: $0) == role } }
    var interfaces: [String] { names(.interface) }
    var implementations: [String] { names(.implementation) }
    var shell: PackageDump.Target? { targets.first { $0.name == Self.shell && $0.type == "executable" } }

    /// `from → to (role of to)`, the form every violation below is reported in.
    private func edge(_ from: String, _ to: PackageDump.Dependency) -> String {
        "\(from) → \(to) (\(role(of: to)))"
    }

    /// Each dependency of a target with role `role` whose role does not satisfy `allowed`, as an edge.
    private func violations(of role: Role, allowed: (Role) -> Bool) -> [String] {
        targets.filter { self.role(of: $0.name) == role }.flatMap { target in
            target.dependencies.filter { !allowed(self.role(of: $0)) }.map { edge(target.name, $0) }
        }
    }

    /// (a) Every implementation target that depends on another implementation target.
    var implementationToImplementation: [String] {
        violations(of: .implementation) { $0 != .implementation }
    }

    /// Every other dependency of an implementation target that is not ModuleHost, a system library or an interface.
    var implementationOtherDependencies: [String] {
        violations(of: .implementation) { [.host, .hostLibrary, .machinery, .systemLibrary, .interface, .implementation].contains($0) }
    }

    /// (b) Every dependency of an interface target that is not ModuleHost or another interface target.
    var interfaceViolations: [String] {
        violations(of: .interface) { [.host, .interface].contains($0) }
    }

    /// (c) What keeps AppShell from depending on exactly ModuleHost plus implementation targets.
    var shellViolations: [String] {
        guard let shell else { return ["there is no executable target \(Self.shell)"] }
        var problems = shell.dependencies.filter { ![.host, .hostLibrary, .machinery, .implementation].contains(role(of: $0)) }.map { edge(shell.name, $0) }
        if !shell.dependencies.contains(where: { role(of: $0) == .host }) {
            problems.append("\(shell.name) does not depend on \(Self.host)")
        }
        return problems
    }

    /// (d) Every dependency of a library built on the host that is not ModuleHost itself or machinery.
    var hostLibraryViolations: [String] {
        violations(of: .hostLibrary) { [.host, .machinery].contains($0) }
    }

    /// (e) Every dependency of a machinery target that is not machinery, and every dependency of the host that is not
    /// machinery or a system library: the machinery sits under the host and knows nothing of it.
    var machineryViolations: [String] {
        violations(of: .machinery) { [.machinery, .systemLibrary].contains($0) }
            + violations(of: .host) { [.machinery, .systemLibrary].contains($0) }
    }

    /// The folder holding a target's sources, relative to the package root.
    func sourceFolder(of name: String) -> String {
        let target = targets.first { $0.name == name }
        return target?.path ?? (target?.type == "test" ? "Tests/\(name)" : "Sources/\(name)")
    }
}
