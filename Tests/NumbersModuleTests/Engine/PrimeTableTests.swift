import Testing
@testable import NumbersModule

@Suite("Prime table")
struct PrimeTableTests {
    @Test func buildsLazilyOrOnWarm() {
        let table = PrimeTable(bound: 1000)
        #expect(!table.isWarm)
        table.warm()
        #expect(table.isWarm)
        #expect(table.primeCount == 168)
        #expect(table.isPrime(997) == true)
        #expect(table.isPrime(999) == false)
        #expect(table.isPrime(1001) == nil)  // above the bound

        let lazy = PrimeTable(bound: 100)
        #expect(lazy.isPrime(97) == true)  // first use builds it
        #expect(lazy.isWarm)
    }

    @Test func defaultTableCounts() {
        let table = PrimeTable()
        #expect(table.bound == 1 << 20)
        #expect(table.primeCount == 82_025)
    }

    @Test func boundsAreClamped() {
        #expect(PrimeTable(bound: -5).bound == 2)
        #expect(PrimeTable(bound: 2).primeCount == 1)
        #expect(PrimeTable(bound: 3).primeCount == 2)
        #expect(PrimeTable(bound: .max).bound == PrimeTable.maximumBound)
    }

    @Test func concurrentWarmAndLookupsAgree() async {
        let table = PrimeTable(bound: 1 << 18)
        let counts = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    if worker.isMultiple(of: 2) { table.warm() }
                    let engine = NumberFactEngine(primeTable: table)
                    return (0..<10_000).filter { engine.isPrime(Int64($0)) }.count
                }
            }
            var results: [Int] = []
            for await count in group { results.append(count) }
            return results
        }
        #expect(counts == Array(repeating: 1229, count: 8))
        #expect(table.isWarm)
    }
}
