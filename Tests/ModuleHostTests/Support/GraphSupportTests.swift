import Testing
@testable import ModuleHost

@Suite("Cycle finder and suggestions")
struct GraphSupportTests {
    @Test func findsEachCycleOnce() {
        // 0 -> 1 -> 2 -> 0, 3 -> 3, 4 -> 5 (acyclic), 6 -> 7 -> 6
        let edges: [[Int]] = [[1], [2], [0], [3], [5], [], [7], [6]]
        let cycles = CycleFinder.cycles(nodeCount: edges.count) { edges[$0] }
        #expect(cycles == [[0, 1, 2, 0], [3, 3], [6, 7, 6]])
    }

    @Test func acyclicGraphHasNoCycles() {
        let edges: [[Int]] = [[1, 2], [3], [3], []]
        #expect(CycleFinder.cycles(nodeCount: 4) { edges[$0] }.isEmpty)
    }

    @Test func deepChainDoesNotOverflowTheStack() {
        let count = 200_000
        let cycles = CycleFinder.cycles(nodeCount: count) { node in node + 1 < count ? [node + 1] : [0] }
        #expect(cycles.count == 1)
        #expect(cycles[0].count == count + 1)
        #expect(cycles[0].first == 0 && cycles[0].last == 0)
    }

    @Test func suggestsCloseNamesOnly() {
        let names = ["AuthModule.AuthModule", "NumbersModule.NumbersModule"]
        #expect(Suggestions.closest(to: "AuthModule.AuthModul", in: names) == "AuthModule.AuthModule")
        #expect(Suggestions.closest(to: "numbersmodule.numbersmodule", in: names) == "NumbersModule.NumbersModule")
        #expect(Suggestions.closest(to: "AuthModule", in: names) == "AuthModule.AuthModule")
        #expect(Suggestions.closest(to: "Completely.Different", in: names) == nil)
    }
}
