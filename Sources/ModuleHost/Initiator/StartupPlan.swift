/// A validated startup graph with a deterministic topological order.
///
/// Operations keep their registration order (module-declared first, then added in code); that order
/// breaks ties everywhere. The order lists phases in phase order and, within a phase, always takes the
/// earliest-registered operation whose dependencies are already placed (Kahn's algorithm on a ``ReadyQueue``),
/// which is exactly the order the serial `.high` phase runs in. Each identifier and each dependency is hashed
/// once; validation and ordering are O(V + E log V) at worst, O(V + E) when dependencies are registered before
/// their dependents.
package struct StartupPlan: Sendable {
    /// The operations in registration order.
    let operations: [StartupOperation]
    /// The phase of each operation, by registration index (read by the schedulers without touching `operations`).
    let priorities: [ModuleStartupOperation.Priority]
    /// Registration indices of each operation's dependencies (deduplicated).
    let dependencyIndices: AdjacencyList
    /// Registration indices of each operation's direct dependents, in registration order.
    let dependentIndices: AdjacencyList
    /// Registration indices in execution order.
    let orderIndices: [Int]
    /// The position in `orderIndices` of each registration index.
    let positions: [Int]
    /// Where each phase begins in `orderIndices`, by phase rank, plus the end: phase `rank` is
    /// `orderIndices[phaseBounds[rank]..<phaseBounds[rank + 1]]`.
    let phaseBounds: [Int]
    /// Registration index for each identifier.
    let indexByIdentifier: [String: Int]

    /// Validates `operations` and orders them, throwing every problem found at once: identifier problems,
    /// then dependency problems, then cycles.
    init(operations: [StartupOperation]) throws(InitiatorError) {
        var problems: [InitiatorError.Problem] = []
        let priorities = operations.map(\.priority)
        let indexByIdentifier = Self.indexIdentifiers(operations, problems: &problems)
        let dependencyIndices = Self.resolveDependencies(operations, priorities, indexByIdentifier, problems: &problems)
        let dependentIndices = dependencyIndices.reversed(nodeCount: operations.count)
        let order = Self.topologicalOrder(priorities: priorities, dependencyIndices: dependencyIndices,
                                          dependentIndices: dependentIndices)
        if order.count < operations.count {
            problems += Self.cycleProblems(operations, dependencyIndices)
        }
        guard problems.isEmpty else { throw InitiatorError(problems: problems) }

        var positions = [Int](repeating: 0, count: order.count)
        var phaseBounds = [Int](repeating: order.count, count: ModuleStartupOperation.Priority.allCases.count + 1)
        for position in order.indices.reversed() {
            let index = order[position]
            positions[index] = position
            phaseBounds[priorities[index].rank] = position
        }
        // A phase with no operation begins where the next one does.
        for rank in phaseBounds.indices.dropLast().reversed() {
            phaseBounds[rank] = min(phaseBounds[rank], phaseBounds[rank + 1])
        }

        self.operations = operations
        self.priorities = priorities
        self.dependencyIndices = dependencyIndices
        self.dependentIndices = dependentIndices
        self.orderIndices = order
        self.positions = positions
        self.phaseBounds = phaseBounds
        self.indexByIdentifier = indexByIdentifier
    }

    /// The positions in `orderIndices` of the operations of `phase`.
    func planPositions(of phase: ModuleStartupOperation.Priority) -> Range<Int> {
        phaseBounds[phase.rank]..<phaseBounds[phase.rank + 1]
    }

    /// Maps each identifier to its first registration index, reporting empty and duplicate identifiers.
    private static func indexIdentifiers(
        _ operations: [StartupOperation], problems: inout [InitiatorError.Problem]
    ) -> [String: Int] {
        var indexByIdentifier: [String: Int] = [:]
        indexByIdentifier.reserveCapacity(operations.count)
        for index in operations.indices {
            let identifier = operations[index].identifier
            if identifier.isEmpty {
                let owner = operations[index].module.map { " declared by module \"\($0)\"" } ?? ""
                problems.append(InitiatorError.Problem(
                    code: .emptyIdentifier,
                    message: "operation #\(index + 1)\(owner) has an empty identifier",
                    operations: [identifier]))
            } else if let first = indexByIdentifier.updateValue(index, forKey: identifier) {
                // One hash on the common path; a duplicate puts the first registration back.
                indexByIdentifier[identifier] = first
                let a = source(of: operations[first]), b = source(of: operations[index])
                problems.append(InitiatorError.Problem(
                    code: .duplicateIdentifier,
                    message: "duplicate operation identifier \"\(identifier)\": declared by \(a) and again by \(b)",
                    operations: [identifier]))
            }
        }
        return indexByIdentifier
    }

    /// The dependency graph (deduplicated edges), reporting unknown and later-phase dependencies.
    private static func resolveDependencies(
        _ operations: [StartupOperation], _ priorities: [ModuleStartupOperation.Priority], _ indexByIdentifier: [String: Int],
        problems: inout [InitiatorError.Problem]
    ) -> AdjacencyList {
        // Read fields in place (indexing, not `enumerated()`), so no operation is copied and retained.
        let count = operations.count
        var offsets = [Int](repeating: 0, count: count + 1)
        var targets: [Int] = []
        targets.reserveCapacity(operations.reduce(0) { $0 + $1.dependencies.count })
        var seenStamp = [Int](repeating: -1, count: count)
        for index in 0..<count {
            for dependency in operations[index].dependencies {
                guard let target = indexByIdentifier[dependency] else {
                    problems.append(unknownDependency(dependency, of: operations[index], among: operations))
                    continue
                }
                if priorities[target] > priorities[index] {
                    problems.append(laterPhaseDependency(operations[target], of: operations[index]))
                }
                if seenStamp[target] == index { continue }
                seenStamp[target] = index
                targets.append(target)
            }
            offsets[index + 1] = targets.count
        }
        return AdjacencyList(offsets: offsets, targets: targets)
    }

    /// The problem of `operation` depending on `dependency`, which no operation has; suggests the closest identifier.
    private static func unknownDependency(
        _ dependency: String, of operation: StartupOperation, among operations: [StartupOperation]
    ) -> InitiatorError.Problem {
        let suggestion = Suggestions.closest(to: dependency, in: operations.lazy.map(\.identifier).filter { !$0.isEmpty })
        let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
        return InitiatorError.Problem(
            code: .unknownDependency,
            message: "\"\(operation.identifier)\" depends on \"\(dependency)\", which does not exist\(hint)",
            operations: [operation.identifier, dependency],
            suggestion: suggestion)
    }

    /// The problem of `operation` depending on `other`, which runs in a later phase.
    private static func laterPhaseDependency(_ other: StartupOperation, of operation: StartupOperation) -> InitiatorError.Problem {
        InitiatorError.Problem(
            code: .laterPhaseDependency,
            message: "\"\(operation.identifier)\" (\(operation.priority.rawValue)) depends on "
                + "\"\(other.identifier)\" (\(other.priority.rawValue)), which runs in a later phase",
            operations: [operation.identifier, other.identifier])
    }

    /// One problem per dependency cycle, each printed as a closed path.
    private static func cycleProblems(_ operations: [StartupOperation], _ dependencyIndices: AdjacencyList) -> [InitiatorError.Problem] {
        CycleFinder.cycles(nodeCount: operations.count, edges: { Array(dependencyIndices[$0]) }).map { cycle in
            let path = cycle.map { operations[$0].identifier }
            return InitiatorError.Problem(
                code: .cycle,
                message: "dependency cycle: " + path.joined(separator: " -> "),
                operations: Array(path.dropLast()))
        }
    }

    /// Kahn's algorithm keyed by (phase rank, registration index); returns fewer indices than there
    /// are operations when the graph has a cycle.
    private static func topologicalOrder(
        priorities: [ModuleStartupOperation.Priority], dependencyIndices: AdjacencyList, dependentIndices: AdjacencyList
    ) -> [Int] {
        let count = priorities.count
        var remaining = [Int](repeating: 0, count: count)
        var ready = ReadyQueue(keyCount: ModuleStartupOperation.Priority.allCases.count * count)
        for index in 0..<count {
            let dependencies = dependencyIndices.count(of: index)
            remaining[index] = dependencies
            if dependencies == 0 { ready.push(priorities[index].rank * count + index) }
        }
        var order: [Int] = []
        order.reserveCapacity(count)
        while let key = ready.pop() {
            let index = key % count
            order.append(index)
            for edge in dependentIndices.edges(of: index) {
                let dependent = dependentIndices.neighbour(at: edge)
                remaining[dependent] -= 1
                if remaining[dependent] == 0 {
                    ready.push(priorities[dependent].rank * count + dependent)
                }
            }
        }
        return order
    }

    /// Describes who declared an operation, for duplicate-identifier messages.
    private static func source(of operation: StartupOperation) -> String {
        operation.module.map { "module \"\($0)\"" } ?? "an operation added in code"
    }

    /// How many operations the plan has.
    package var operationCount: Int { operations.count }

    /// The operations in execution order (phase by phase; dependencies before dependents).
    var orderedOperations: [StartupOperation] { orderIndices.map { operations[$0] } }

    /// The identifiers in execution order.
    var order: [String] { orderIndices.map { operations[$0].identifier } }

    /// The operation with the given identifier, if any.
    func operation(_ identifier: String) -> StartupOperation? {
        indexByIdentifier[identifier].map { operations[$0] }
    }

    /// The phase an operation runs in, or `nil` for an unknown identifier.
    func phase(of identifier: String) -> ModuleStartupOperation.Priority? {
        operation(identifier)?.priority
    }

    /// The identifiers of the operations that directly depend on `identifier`, in registration order.
    func dependents(of identifier: String) -> [String] {
        guard let index = indexByIdentifier[identifier] else { return [] }
        return dependentIndices[index].map { operations[$0].identifier }
    }

    /// The identifiers of the operations in `phase`, in execution order.
    func operations(in phase: ModuleStartupOperation.Priority) -> [String] {
        orderIndices.lazy.filter { operations[$0].priority == phase }.map { operations[$0].identifier }
    }
}
