/// Finds dependency cycles in a directed graph whose nodes are the integers `0..<nodeCount`.
///
/// Used for module requirements and for startup operations alike. Runs in O(V + E) with an explicit
/// stack (Tarjan's strongly connected components), so deep graphs cannot overflow the call stack.
enum CycleFinder {
    /// One cycle per strongly connected component that contains a cycle, each as a closed path
    /// `[a, b, c, a]` starting at the component's smallest node. Self-loops are reported as `[a, a]`.
    /// Cycles are ordered by their first node.
    static func cycles(nodeCount: Int, edges: (Int) -> [Int]) -> [[Int]] {
        var index = [Int](repeating: -1, count: nodeCount)
        var lowLink = [Int](repeating: 0, count: nodeCount)
        var onStack = [Bool](repeating: false, count: nodeCount)
        var stack: [Int] = []
        var components: [[Int]] = []
        var nextIndex = 0
        var adjacency: [[Int]] = []
        adjacency.reserveCapacity(nodeCount)
        for node in 0..<nodeCount { adjacency.append(edges(node)) }

        // Each frame: the node and how many of its edges have been explored.
        var frames: [(node: Int, edge: Int)] = []
        for root in 0..<nodeCount where index[root] < 0 {
            frames.append((root, 0))
            index[root] = nextIndex; lowLink[root] = nextIndex; nextIndex += 1
            stack.append(root); onStack[root] = true
            while let frame = frames.last {
                let node = frame.node
                if frame.edge < adjacency[node].count {
                    frames[frames.count - 1].edge += 1
                    let next = adjacency[node][frame.edge]
                    if index[next] < 0 {
                        index[next] = nextIndex; lowLink[next] = nextIndex; nextIndex += 1
                        stack.append(next); onStack[next] = true
                        frames.append((next, 0))
                    } else if onStack[next] {
                        lowLink[node] = min(lowLink[node], index[next])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.node {
                    lowLink[parent] = min(lowLink[parent], lowLink[node])
                }
                if lowLink[node] == index[node] {
                    // A node alone is a cycle only through an edge to itself; most are alone, and need no array.
                    if stack.last == node, !adjacency[node].contains(node) {
                        stack.removeLast()
                        onStack[node] = false
                        continue
                    }
                    var component: [Int] = []
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component.append(member)
                        if member == node { break }
                    }
                    let isCycle = component.count > 1 || adjacency[node].contains(node)
                    if isCycle { components.append(component) }
                }
            }
        }
        return components
            .map { closedPath(in: $0, adjacency: adjacency) }
            .sorted { $0[0] < $1[0] }
    }

    /// A closed path through a strongly connected component, from its smallest node back to it,
    /// found by a breadth-first search restricted to the component (so the path is a shortest cycle).
    private static func closedPath(in component: [Int], adjacency: [[Int]]) -> [Int] {
        let members = Set(component)
        let start = component.min() ?? component[0]
        if adjacency[start].contains(start) { return [start, start] }
        var parent: [Int: Int] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]; head += 1
            for next in adjacency[node] where members.contains(next) {
                if next == start {
                    var path = [start]
                    var cursor = node
                    while cursor != start {
                        path.append(cursor)
                        cursor = parent[cursor] ?? start
                    }
                    path.append(start)
                    // path is start, ..., reversed; rebuild as start -> ... -> node -> start
                    return [start] + path.dropFirst().dropLast().reversed() + [start]
                }
                if parent[next] == nil && next != start {
                    parent[next] = node
                    queue.append(next)
                }
            }
        }
        return [start, start]
    }
}
