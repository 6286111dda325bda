import Foundation

extension StartupPlan {
    /// The plan as a Graphviz DOT digraph: one cluster per phase, edges point from a dependency to its dependent.
    package func dotGraph() -> String {
        var lines = ["digraph startup {", "  rankdir=LR;", "  node [shape=box];"]
        for phase in Initiator.Priority.allCases {
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
        for phase in Initiator.Priority.allCases {
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
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Escapes a Mermaid quoted label using its entity codes.
    private static func mermaidEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "#quot;")
            .replacingOccurrences(of: "<", with: "#lt;")
            .replacingOccurrences(of: ">", with: "#gt;")
    }
}
