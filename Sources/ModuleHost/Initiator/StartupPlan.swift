/// A validated startup graph with a deterministic topological order.
///
/// Operations keep their registration order (module-declared first, then added in code); that order
/// breaks ties everywhere. The order lists phases in phase order and, within a phase, always takes the
/// earliest-registered operation whose dependencies are already placed (Kahn's algorithm on a min-heap),
/// which is exactly the order the serial `.high` phase runs in. Validation and ordering are O(V + E log V).
public struct StartupPlan: Sendable {
    /// The operations in registration order.
    public let operations: [StartupOperation]
    /// Registration indices of each operation's dependencies (deduplicated).
    let dependencyIndices: AdjacencyList
    /// Registration indices of each operation's direct dependents, in registration order.
    let dependentIndices: AdjacencyList
    /// Registration indices in execution order.
    let orderIndices: [Int]
    /// Registration index for each identifier.
    let indexByIdentifier: [String: Int]

    /// Validates `operations` and orders them, throwing every problem found at once.
    public init(operations: [StartupOperation]) throws(StartupPlanError) {
        let count = operations.count
        var problems: [PlanProblem] = []
        var indexByIdentifier: [String: Int] = [:]
        indexByIdentifier.reserveCapacity(count)

        for index in 0..<count {
            let identifier = operations[index].identifier
            if identifier.isEmpty {
                let operation = operations[index]
                let owner = operation.module.map { " declared by module \"\($0)\"" } ?? ""
                problems.append(PlanProblem(
                    code: .emptyIdentifier,
                    message: "operation #\(index + 1)\(owner) has an empty identifier",
                    operations: [identifier]))
                continue
            }
            if let first = indexByIdentifier[identifier] {
                let a = Self.source(of: operations[first]), b = Self.source(of: operations[index])
                problems.append(PlanProblem(
                    code: .duplicateIdentifier,
                    message: "duplicate operation identifier \"\(identifier)\": declared by \(a) and again by \(b)",
                    operations: [identifier]))
                continue
            }
            indexByIdentifier[identifier] = index
        }

        // Read fields in place (indexing, not `enumerated()`), so no operation is copied and retained.
        let ranks = operations.map(\.priority.rank)
        var offsets = [Int](repeating: 0, count: count + 1)
        var targets: [Int] = []
        targets.reserveCapacity(operations.reduce(0) { $0 + $1.dependencies.count })
        var seenStamp = [Int](repeating: -1, count: count)
        for index in 0..<count {
            for dependency in operations[index].dependencies {
                guard let target = indexByIdentifier[dependency] else {
                    let operation = operations[index]
                    let suggestion = Suggestions.closest(to: dependency, in: operations.lazy.map(\.identifier).filter { !$0.isEmpty })
                    let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
                    problems.append(PlanProblem(
                        code: .unknownDependency,
                        message: "\"\(operation.identifier)\" depends on \"\(dependency)\", which does not exist\(hint)",
                        operations: [operation.identifier, dependency],
                        suggestion: suggestion))
                    continue
                }
                if ranks[target] > ranks[index] {
                    let operation = operations[index], other = operations[target]
                    problems.append(PlanProblem(
                        code: .laterPhaseDependency,
                        message: "\"\(operation.identifier)\" (\(operation.priority.rawValue)) depends on "
                            + "\"\(other.identifier)\" (\(other.priority.rawValue)), which runs in a later phase",
                        operations: [operation.identifier, other.identifier]))
                }
                if seenStamp[target] == index { continue }
                seenStamp[target] = index
                targets.append(target)
            }
            offsets[index + 1] = targets.count
        }
        let dependencyIndices = AdjacencyList(offsets: offsets, targets: targets)
        let dependentIndices = dependencyIndices.reversed(nodeCount: count)

        let order = Self.topologicalOrder(ranks: ranks, dependencyIndices: dependencyIndices,
                                          dependentIndices: dependentIndices)
        if order.count < count {
            for cycle in CycleFinder.cycles(nodeCount: count, edges: { Array(dependencyIndices[$0]) }) {
                let path = cycle.map { operations[$0].identifier }
                problems.append(PlanProblem(
                    code: .cycle,
                    message: "dependency cycle: " + path.joined(separator: " -> "),
                    operations: Array(path.dropLast())))
            }
        }
        guard problems.isEmpty else { throw StartupPlanError(problems: problems) }

        self.operations = operations
        self.dependencyIndices = dependencyIndices
        self.dependentIndices = dependentIndices
        self.orderIndices = order
        self.indexByIdentifier = indexByIdentifier
    }

    /// Kahn's algorithm keyed by (phase rank, registration index); returns fewer indices than there
    /// are operations when the graph has a cycle.
    private static func topologicalOrder(ranks: [Int], dependencyIndices: AdjacencyList, dependentIndices: AdjacencyList) -> [Int] {
        let count = ranks.count
        var remaining = (0..<count).map { dependencyIndices.count(of: $0) }
        var heap = MinHeap(capacity: count)
        for index in 0..<count where remaining[index] == 0 {
            heap.push(ranks[index] * count + index)
        }
        var order: [Int] = []
        order.reserveCapacity(count)
        while let key = heap.pop() {
            let index = key % count
            order.append(index)
            for dependent in dependentIndices[index] {
                remaining[dependent] -= 1
                if remaining[dependent] == 0 {
                    heap.push(ranks[dependent] * count + dependent)
                }
            }
        }
        return order
    }

    /// Describes who declared an operation, for duplicate-identifier messages.
    private static func source(of operation: StartupOperation) -> String {
        operation.module.map { "module \"\($0)\"" } ?? "an operation added in code"
    }

    /// The operations in execution order (phase by phase; dependencies before dependents).
    public var orderedOperations: [StartupOperation] { orderIndices.map { operations[$0] } }

    /// The identifiers in execution order.
    public var order: [String] { orderIndices.map { operations[$0].identifier } }

    /// The operation with the given identifier, if any.
    public func operation(_ identifier: String) -> StartupOperation? {
        indexByIdentifier[identifier].map { operations[$0] }
    }

    /// The phase an operation runs in, or `nil` for an unknown identifier.
    public func phase(of identifier: String) -> Initiator.Priority? {
        operation(identifier)?.priority
    }

    /// The identifiers of the operations that directly depend on `identifier`, in registration order.
    public func dependents(of identifier: String) -> [String] {
        guard let index = indexByIdentifier[identifier] else { return [] }
        return dependentIndices[index].map { operations[$0].identifier }
    }

    /// The identifiers of the operations in `phase`, in execution order.
    public func operations(in phase: Initiator.Priority) -> [String] {
        orderIndices.lazy.filter { operations[$0].priority == phase }.map { operations[$0].identifier }
    }
}
