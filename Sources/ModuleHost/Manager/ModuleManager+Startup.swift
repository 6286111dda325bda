#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bridge from registered modules to the ``Initiator``: their declared startup operations, with the
/// manifest's overrides applied, as one graph.
extension ModuleManager {
    /// The startup operations declared by the registered modules, in registration (manifest) order, with the
    /// manifest's priority, timeout and failure-policy overrides applied and optional dependencies that no
    /// module declares dropped. Each body is handed this manager when it runs, on the executor the initiator
    /// calls it from (the main actor in `.high`): ``StartupOperation/Work/run()`` does not hop.
    func startupOperations() -> [StartupOperation] {
        let registrations = registry.orderedRegistrations()
        let pointName = ModuleStartupOperation.point.name
        // Every declared operation's identifier, needed only to drop optional dependencies that no module
        // declares: made when the first operation with one is met (most apps have none).
        var known: Set<String>?
        var operations: [StartupOperation] = []
        operations.reserveCapacity(registrations.reduce(0) { $0 + $1.contributions.count })
        // Held weakly, so operations kept after the manager is gone do not keep it alive; one reference for all.
        let manager = WeakManagerReference(self)
        for registration in registrations {
            for contribution in registration.contributions where contribution.pointName == pointName {
                // Read in place: the declaration is lent, not copied out of its box with every reference it holds.
                contribution.withValue(as: ModuleStartupOperation.self) { declaration in
                    let overrides = registration.startup.resolved(for: declaration.identifier)
                    var dependencies = declaration.dependencies
                    if !declaration.optionalDependencies.isEmpty {
                        let identifiers = known ?? Self.operationIdentifiers(of: registrations)
                        known = identifiers
                        dependencies += declaration.optionalDependencies.filter { identifiers.contains($0) }
                    }
                    operations.append(StartupOperation(
                        declaration.identifier, module: registration.identifier,
                        priority: overrides.priority ?? declaration.priority,
                        dependencies: dependencies,
                        failurePolicy: overrides.failurePolicy ?? declaration.failurePolicy,
                        timeout: overrides.timeout ?? declaration.timeout,
                        work: .declared(declaration.body, manager: manager)))
                }
            }
        }
        return operations
    }

    /// The identifiers of every startup operation `registrations` declare.
    private static func operationIdentifiers(of registrations: [ModuleRegistration]) -> Set<String> {
        Set(registrations.flatMap {
            Contribution.values(of: $0.contributions, for: ModuleStartupOperation.point).map(\.identifier)
        })
    }

    /// The validated plan of the registered modules' startup operations, for drawing or checking it
    /// (`app-shell graph`, `app-shell validate`); throws every problem at once.
    package func startupPlan() throws(InitiatorError) -> StartupPlan {
        try StartupPlan(operations: startupOperations())
    }

    /// How ``startupGraph(as:)`` draws the plan.
    public enum GraphFormat: String, Sendable, CaseIterable {
        /// A Graphviz digraph: one cluster per phase, edges from a dependency to its dependent.
        case dot
        /// A Mermaid flowchart: one subgraph per phase.
        case mermaid
    }

    /// The registered modules' startup plan drawn as `format` (what `app-shell graph` prints), without running
    /// anything; throws every problem of the plan at once.
    ///
    /// - Parameter format: Graphviz (`dot`) or Mermaid.
    /// - Returns: The graph's text.
    /// - Throws: ``InitiatorError`` with every problem of the plan.
    public func startupGraph(as format: GraphFormat = .dot) throws(InitiatorError) -> String {
        let plan = try startupPlan()
        return format == .dot ? plan.dotGraph() : plan.mermaidGraph()
    }
}
