/// A directed graph whose nodes are grouped in clusters, written as Graphviz DOT or as a Mermaid flowchart. Edges
/// point from a node to the nodes that come after it.
public struct GraphText {
    /// One node: its number (unique in the graph), its name and a second line under it.
    public struct Node {
        /// The node's number, unique in the graph.
        public let id: Int
        /// The first line of its label.
        public let name: String
        /// The second line of its label.
        public let detail: String

        /// A node.
        ///
        /// - Parameters:
        ///   - id: Its number, unique in the graph.
        ///   - name: The first line of its label.
        ///   - detail: The second line of its label.
        public init(id: Int, name: String, detail: String) {
            self.id = id
            self.name = name
            self.detail = detail
        }
    }

    /// The clusters, each a name and its nodes, in the order they are written; an empty one is left out.
    public var clusters: [(name: String, nodes: [Node])]
    /// The edges, by node number, in the order they are written.
    public var edges: [(from: Int, to: Int)]

    /// A graph of `clusters` and `edges`.
    ///
    /// - Parameters:
    ///   - clusters: Each cluster's name and nodes.
    ///   - edges: Each edge, from a node's number to another's.
    public init(clusters: [(name: String, nodes: [Node])], edges: [(from: Int, to: Int)]) {
        self.clusters = clusters
        self.edges = edges
    }

    /// The graph as a Graphviz DOT digraph (`digraph <name>`), one `cluster_<name>` subgraph per cluster.
    ///
    /// - Parameter name: The digraph's name.
    /// - Returns: The DOT text, ending with a newline.
    public func dot(name: String) -> String {
        var lines = ["digraph \(name) {", "  rankdir=LR;", "  node [shape=box];"]
        for cluster in clusters where !cluster.nodes.isEmpty {
            lines.append("  subgraph \"cluster_\(cluster.name)\" {")
            lines.append("    label=\"\(Self.dotEscaped(cluster.name))\";")
            for node in cluster.nodes {
                lines.append("    n\(node.id) [label=\"\(Self.dotEscaped("\(node.name)\n\(node.detail)"))\"];")
            }
            lines.append("  }")
        }
        lines += edges.map { "  n\($0.from) -> n\($0.to);" }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart, one `<prefix><name>` subgraph per cluster.
    ///
    /// - Parameter clusterPrefix: What each subgraph's identifier starts with, before the cluster's name.
    /// - Returns: The Mermaid text, ending with a newline.
    public func mermaid(clusterPrefix: String) -> String {
        var lines = ["flowchart LR"]
        for cluster in clusters where !cluster.nodes.isEmpty {
            lines.append("  subgraph \(clusterPrefix)\(cluster.name)[\"\(Self.mermaidEscaped(cluster.name))\"]")
            for node in cluster.nodes {
                lines.append("    n\(node.id)[\"\(Self.mermaidEscaped(node.name))<br/>\(Self.mermaidEscaped(node.detail))\"]")
            }
            lines.append("  end")
        }
        lines += edges.map { "  n\($0.from) --> n\($0.to)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes a DOT quoted-string label (backslashes, quotes, newlines as `\n`).
    private static func dotEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }

    /// Escapes a Mermaid quoted label with its entity codes.
    private static func mermaidEscaped(_ text: String) -> String {
        text.replacing("\"", with: "#quot;").replacing("<", with: "#lt;").replacing(">", with: "#gt;")
    }
}
