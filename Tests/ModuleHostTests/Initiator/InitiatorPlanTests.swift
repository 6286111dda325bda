import Testing
@testable import ModuleHost

/// An operation with an empty body, for planning tests.
private func op(
    _ id: String, _ priority: ModuleStartupOperation.Priority = .asyncHigh, _ dependencies: [String] = [],
    module: ModuleIdentifier? = nil
) -> StartupOperation {
    StartupOperation(id, module: module, priority: priority, dependencies: dependencies) {}
}

/// Asserts every dependency comes before its dependent in `order`.
private func expectTopological(_ operations: [StartupOperation], _ order: [String]) {
    var position: [String: Int] = [:]
    for (index, id) in order.enumerated() { position[id] = index }
    #expect(position.count == operations.count)
    for operation in operations {
        for dependency in operation.dependencies {
            #expect((position[dependency] ?? .max) < (position[operation.identifier] ?? -1))
        }
    }
}

/// Builds a plan that is expected to be invalid and returns its error.
private func planError(_ operations: [StartupOperation]) -> InitiatorError? {
    do {
        _ = try StartupPlan(operations: operations)
        return nil
    } catch {
        return error
    }
}

@Suite("Initiator: planning")
struct InitiatorPlanTests {
    @Test func seedOrderStartsWithSharedDependencyAndEndsWithRoot() throws {
        let operations = [op("1", .high, ["2", "3"]), op("2", .high, ["4"]), op("3", .high, ["4"]), op("4", .high)]
        let plan = try StartupPlan(operations: operations)
        #expect(plan.order == ["4", "2", "3", "1"])
        #expect(plan.order.first == "4")
        #expect(plan.order.last == "1")
    }

    @Test func tieBreakFollowsRegistrationOrder() throws {
        let plan = try StartupPlan(operations: [op("c", .high), op("a", .high), op("b", .high), op("z", .high, ["b"])])
        #expect(plan.order == ["c", "a", "b", "z"])
    }

    @Test func orderGoesPhaseByPhase() throws {
        let plan = try StartupPlan(operations: [
            op("idle", .idle), op("low", .low, ["high"]), op("async", .asyncHigh), op("high", .high),
            op("first", .afterFirstFrame),
        ])
        #expect(plan.order == ["high", "async", "first", "low", "idle"])
        #expect(plan.phase(of: "low") == .low)
        #expect(plan.dependents(of: "high") == ["low"])
        #expect(plan.operations(in: .high) == ["high"])
        #expect(plan.phase(of: "missing") == nil)
    }

    @Test func unknownDependencyNamesOperationAndSuggestsClosest() throws {
        let error = try #require(planError([op("analytics", .asyncHigh, ["netwrok"]), op("network")]))
        let problem = try #require(error.problems.first)
        #expect(error.problems.count == 1)
        #expect(problem.code == .unknownDependency)
        #expect(problem.suggestion == "network")
        #expect(problem.message.contains("\"analytics\""))
        #expect(problem.message.contains("\"netwrok\""))
        #expect(problem.message.contains("did you mean \"network\"?"))
    }

    @Test func duplicateIdentifierNamesBothModules() throws {
        let error = try #require(planError([
            op("setup", module: "com.example.auth"), op("setup", module: "com.example.numbers"),
        ]))
        #expect(error.problemCodes == [.duplicateIdentifier])
        let message = error.problems[0].message
        #expect(message.contains("\"setup\""))
        #expect(message.contains("com.example.auth"))
        #expect(message.contains("com.example.numbers"))
    }

    @Test func laterPhaseDependencyNamesBothOperationsAndPhases() throws {
        let error = try #require(planError([op("a", .high, ["b"]), op("b", .low)]))
        #expect(error.problemCodes == [.laterPhaseDependency])
        #expect(error.problems[0].message == "\"a\" (high) depends on \"b\" (low), which runs in a later phase")
    }

    @Test func cycleIsPrintedAsClosedPath() throws {
        let error = try #require(planError([op("a", .high, ["b"]), op("b", .high, ["c"]), op("c", .high, ["a"])]))
        #expect(error.problemCodes == [.cycle])
        #expect(error.problems[0].message.contains("a -> b -> c -> a"))
        #expect(error.problems[0].operations == ["a", "b", "c"])
    }

    @Test func selfDependencyIsACycle() throws {
        let error = try #require(planError([op("a", .high, ["a"])]))
        #expect(error.problemCodes == [.cycle])
        #expect(error.problems[0].message.contains("a -> a"))
    }

    @Test func emptyIdentifierIsAnError() throws {
        let error = try #require(planError([op(""), op("ok")]))
        #expect(error.problemCodes == [.emptyIdentifier])
    }

    @Test func everyProblemIsReportedTogether() throws {
        let error = try #require(planError([
            op("", .high),
            op("dup"), op("dup"),
            op("x", .asyncHigh, ["nope"]),
            op("early", .high, ["late"]), op("late", .idle),
            op("p", .low, ["q"]), op("q", .low, ["p"]),
        ]))
        #expect(Set(error.problemCodes) == [.emptyIdentifier, .duplicateIdentifier, .unknownDependency,
                                     .laterPhaseDependency, .cycle])
        #expect(error.problems.count == 5)
        let text = error.description
        #expect(text.contains("5 problems"))
        #expect(text.contains("p -> q -> p"))
    }

    @Test func duplicateDependencyEntriesAreHarmless() throws {
        let plan = try StartupPlan(operations: [op("a"), op("b", .asyncHigh, ["a", "a"])])
        #expect(plan.order == ["a", "b"])
        #expect(plan.dependents(of: "a") == ["b"])
    }

    @Test func graphRenderersListNodesPhasesAndEdges() throws {
        let plan = try StartupPlan(operations: [op("db", .high), op("cache", .asyncHigh, ["db"]), op("say \"hi\"", .low)])
        let dot = plan.dotGraph()
        #expect(dot.hasPrefix("digraph startup {"))
        #expect(dot.contains("subgraph \"cluster_high\""))
        #expect(dot.contains("subgraph \"cluster_asyncHigh\""))
        #expect(dot.contains("label=\"db\\nhigh\""))
        #expect(dot.contains("n0 -> n1;"))
        #expect(dot.contains("say \\\"hi\\\""))
        let mermaid = plan.mermaidGraph()
        #expect(mermaid.hasPrefix("flowchart LR"))
        #expect(mermaid.contains("subgraph phase_low[\"low\"]"))
        #expect(mermaid.contains("n1[\"cache<br/>asyncHigh\"]"))
        #expect(mermaid.contains("n0 --> n1"))
        #expect(mermaid.contains("#quot;hi#quot;"))
    }

    @Test func plannerScalesToTenThousandOperations() throws {
        let count = 10_000
        var seed: UInt64 = 42
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var operations: [StartupOperation] = []
        operations.reserveCapacity(count)
        // Registered in reverse so that dependencies point to later registrations; phases never decrease.
        for i in stride(from: count - 1, through: 0, by: -1) {
            let phase = ModuleStartupOperation.Priority.allCases[i * 5 / count]
            var dependencies: [String] = []
            if i > 0 {
                var chosen = Set<Int>()
                while chosen.count < min(3, i) { chosen.insert(next(i)) }
                dependencies = chosen.sorted().map { "op\($0)" }
            }
            operations.append(op("op\(i)", phase, dependencies))
        }
        #expect(operations.reduce(0) { $0 + $1.dependencies.count } >= 29_990)
        let plan = try StartupPlan(operations: operations)
        expectTopological(operations, plan.order)
        let phases = plan.orderedOperations.map(\.priority)
        #expect(phases == phases.sorted())
    }
}
