/// A graph's edges in compressed sparse rows: one flat array of targets and one offset per node, instead of an
/// array per node. The planner builds two of them for up to 100,000 operations, where per-node arrays would
/// cost an allocation each and scatter the graph over memory.
struct AdjacencyList: Sendable {
    /// `targets[offsets[node]..<offsets[node + 1]]` are the node's neighbours.
    private let offsets: [Int]
    private let targets: [Int]

    /// Wraps prebuilt rows: `offsets` has one entry per node plus one (starting at 0, never decreasing) and
    /// `targets[offsets[node]..<offsets[node + 1]]` are `node`'s neighbours.
    init(offsets: [Int], targets: [Int]) {
        self.offsets = offsets
        self.targets = targets
    }

    /// The neighbours of `node`, in insertion order.
    subscript(node: Int) -> ArraySlice<Int> {
        targets[offsets[node]..<offsets[node + 1]]
    }

    /// The positions of `node`'s edges, for ``neighbour(at:)``: walking them reads the neighbours without making
    /// an `ArraySlice`, which retains and releases the storage on every call of the hot loops.
    func edges(of node: Int) -> Range<Int> {
        offsets[node]..<offsets[node + 1]
    }

    /// The neighbour at an edge position from ``edges(of:)``.
    func neighbour(at edge: Int) -> Int {
        targets[edge]
    }

    /// How many neighbours `node` has.
    func count(of node: Int) -> Int {
        offsets[node + 1] - offsets[node]
    }

    /// The reverse graph: for every edge `a -> b` here, `b -> a` there, neighbours in ascending order of `a`.
    func reversed(nodeCount: Int) -> AdjacencyList {
        var counts = [Int](repeating: 0, count: nodeCount + 1)
        for target in targets { counts[target + 1] += 1 }
        for node in 0..<nodeCount { counts[node + 1] += counts[node] }
        var next = counts
        var reversedTargets = [Int](repeating: 0, count: targets.count)
        for node in 0..<nodeCount {
            for edge in edges(of: node) {
                let target = targets[edge]
                reversedTargets[next[target]] = node
                next[target] += 1
            }
        }
        return AdjacencyList(offsets: counts, targets: reversedTargets)
    }
}
