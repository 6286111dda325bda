import Testing
@testable import ModuleHost
import TestSupport

/// The plan order by definition: repeatedly place the ready operation with the smallest (phase, registration
/// index), found by a linear scan.
private func naiveOrder(_ operations: [StartupOperation]) -> [String] {
    var placed = Set<String>()
    var order: [String] = []
    while order.count < operations.count {
        let next = operations.indices
            .filter { !placed.contains(operations[$0].identifier) && operations[$0].dependencies.allSatisfy(placed.contains) }
            .min { (operations[$0].priority.rank, $0) < (operations[$1].priority.rank, $1) }
        guard let next else { break }
        placed.insert(operations[next].identifier)
        order.append(operations[next].identifier)
    }
    return order
}

/// `count` operations over every phase whose dependencies follow a hidden random topological order, so that
/// many point at operations registered later (which the ready queue keeps in its heap).
private func randomOperations(count: Int, generator: inout SplitMix64) -> [StartupOperation] {
    let hidden = Array(0..<count).shuffled(using: &generator)  // hidden[k] is the k-th in a valid order
    var priorities = [ModuleStartupOperation.Priority](repeating: .high, count: count)
    var rank = 0
    for index in hidden {  // phases never decrease along the hidden order, so dependencies stay legal
        if Int.random(in: 0..<8, using: &generator) == 0 { rank = min(rank + 1, 4) }
        priorities[index] = ModuleStartupOperation.Priority.allCases[rank]
    }
    var operations: [StartupOperation] = []
    for index in 0..<count {
        let place = hidden.firstIndex(of: index) ?? 0
        var dependencies: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &generator) where place > 0 {
            dependencies.append("op\(hidden[Int.random(in: 0..<place, using: &generator)])")
        }
        operations.append(StartupOperation("op\(index)", priority: priorities[index], dependencies: dependencies) {})
    }
    return operations
}

@Suite("Initiator: plan order and the ready queue")
struct PlanOrderTests {
    @Test func readyQueuePopsTheSmallestKeyEvenBelowItsCursor() {
        var generator = SplitMix64(seed: 16)
        for _ in 0..<50 {
            let keyCount = Int.random(in: 1...300, using: &generator)
            var queue = ReadyQueue(keyCount: keyCount)
            var model = Set<Int>()
            var unused = Array(0..<keyCount).shuffled(using: &generator)
            var popped: [Int] = []
            var expected: [Int] = []
            while !unused.isEmpty || !model.isEmpty {
                if let key = unused.last, model.isEmpty || Bool.random(using: &generator) {
                    unused.removeLast()
                    queue.push(key)
                    model.insert(key)
                } else {
                    let smallest = model.min()
                    expected.append(smallest ?? -1)
                    popped.append(queue.pop() ?? -1)
                    if let smallest { model.remove(smallest) }
                }
            }
            #expect(popped == expected)
            #expect(queue.isEmpty)
            #expect(queue.pop() == nil)
        }
    }

    @Test func planOrderIsTheSmallestReadyPhaseThenRegistrationIndex() throws {
        var generator = SplitMix64(seed: 0x16)
        for _ in 0..<40 {
            let operations = randomOperations(count: Int.random(in: 1...120, using: &generator), generator: &generator)
            let plan = try StartupPlan(operations: operations)
            #expect(plan.order == naiveOrder(operations))
        }
    }

    @Test func planPositionsAndPhaseRangesMatchTheOrder() throws {
        var generator = SplitMix64(seed: 0x61)
        for _ in 0..<20 {
            let operations = randomOperations(count: Int.random(in: 1...80, using: &generator), generator: &generator)
            let plan = try StartupPlan(operations: operations)
            for (position, index) in plan.orderIndices.enumerated() {
                #expect(plan.positions[index] == position)
            }
            for phase in ModuleStartupOperation.Priority.allCases {
                let members = plan.planPositions(of: phase).map { plan.operations[plan.orderIndices[$0]].identifier }
                #expect(members == plan.operations(in: phase))
            }
        }
    }

    @Test func aPhaseWithNoOperationHasAnEmptyRange() throws {
        let plan = try StartupPlan(operations: [
            StartupOperation("low", priority: .low) {}, StartupOperation("high", priority: .high) {},
        ])
        #expect(plan.planPositions(of: .high) == 0..<1)
        #expect(plan.planPositions(of: .asyncHigh).isEmpty)
        #expect(plan.planPositions(of: .afterFirstFrame).isEmpty)
        #expect(plan.planPositions(of: .low) == 1..<2)
        #expect(plan.planPositions(of: .idle).isEmpty)
    }
}
