#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import ModuleHostRendering

extension StartupPlan {
    /// The plan as a Graphviz DOT digraph: one cluster per phase, edges point from a dependency to its dependent.
    package func dotGraph() -> String {
        graphText().dot(name: "startup")
    }

    /// The plan as a Mermaid flowchart: one subgraph per phase, edges point from a dependency to its dependent.
    package func mermaidGraph() -> String {
        graphText().mermaid(clusterPrefix: "phase_")
    }

    /// The operations by phase, in start order, each labelled with its identifier and phase.
    private func graphText() -> GraphText {
        let clusters = ModuleStartupOperation.Priority.allCases.map { phase in
            (name: phase.rawValue, nodes: orderIndices.filter { operations[$0].priority == phase }.map {
                GraphText.Node(id: $0, name: operations[$0].identifier, detail: phase.rawValue)
            })
        }
        return GraphText(clusters: clusters, edges: orderIndices.flatMap { index in dependencyIndices[index].map { (from: $0, to: index) } })
    }
}

/// One operation of the startup graph, for `app-shell graph --json`.
package struct StartupGraphNode: Encodable, Sendable {
    /// The operation's identifier.
    package let identifier: String
    /// The module that declares it, if any.
    package let module: ModuleIdentifier?
    /// Its phase.
    package let phase: ModuleStartupOperation.Priority
    /// The operations it waits for (edges point from these to it).
    package let dependencies: [String]
    /// `required` or `optional`, after the phase's default.
    package let failurePolicy: ModuleStartupOperation.FailurePolicy
}

extension StartupPlan {
    /// The plan's operations in the order they may start, with their dependencies.
    package var graphNodes: [StartupGraphNode] {
        orderIndices.map { index in
            let operation = operations[index]
            return StartupGraphNode(
                identifier: operation.identifier, module: operation.module, phase: operation.priority,
                dependencies: dependencyIndices[index].map { operations[$0].identifier },
                failurePolicy: operation.effectiveFailurePolicy)
        }
    }
}
