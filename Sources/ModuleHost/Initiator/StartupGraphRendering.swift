#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StartupPlan {
    /// The plan as a Graphviz DOT digraph: one cluster per phase, edges point from a dependency to its dependent.
    package func dotGraph() -> String {
        var lines = ["digraph startup {", "  rankdir=LR;", "  node [shape=box];"]
        for phase in ModuleStartupOperation.Priority.allCases {
            let members = orderIndices.filter { operations[$0].priority == phase }
            guard !members.isEmpty else { continue }
            lines.append("  subgraph \"cluster_\(phase.rawValue)\" {")
            lines.append("    label=\"\(phase.rawValue)\";")
            for index in members {
                let label = Self.dotEscaped("\(operations[index].identifier)\n\(phase.rawValue)")
                lines.append("    n\(index) [label=\"\(label)\"];")
            }
            lines.append("  }")
        }
        for index in orderIndices {
            for dependency in dependencyIndices[index] {
                lines.append("  n\(dependency) -> n\(index);")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The plan as a Mermaid flowchart: one subgraph per phase, edges point from a dependency to its dependent.
    package func mermaidGraph() -> String {
        var lines = ["flowchart LR"]
        for phase in ModuleStartupOperation.Priority.allCases {
            let members = orderIndices.filter { operations[$0].priority == phase }
            guard !members.isEmpty else { continue }
            lines.append("  subgraph phase_\(phase.rawValue)[\"\(phase.rawValue)\"]")
            for index in members {
                let label = Self.mermaidEscaped(operations[index].identifier)
                lines.append("    n\(index)[\"\(label)<br/>\(phase.rawValue)\"]")
            }
            lines.append("  end")
        }
        for index in orderIndices {
            for dependency in dependencyIndices[index] {
                lines.append("  n\(dependency) --> n\(index)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes a DOT quoted-string label (backslashes, quotes, newlines as `\n`).
    private static func dotEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\")
            .replacing("\"", with: "\\\"")
            .replacing("\n", with: "\\n")
    }

    /// Escapes a Mermaid quoted label using its entity codes.
    private static func mermaidEscaped(_ text: String) -> String {
        text.replacing("\"", with: "#quot;")
            .replacing("<", with: "#lt;")
            .replacing(">", with: "#gt;")
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
