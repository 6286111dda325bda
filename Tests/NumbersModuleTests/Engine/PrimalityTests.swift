import Testing
@testable import NumbersModule

@Suite("Primality")
struct PrimalityTests {
    let engine = NumberFactEngine()

    @Test func primalityAgreesWithAPlainSieveBelow100000() {
        let limit = 100_000
        let oracle = referenceSieve(upTo: limit)
        // The default engine answers from its table; a tiny table forces Miller-Rabin above 100.
        let tableEngine = NumberFactEngine(primeTable: PrimeTable(bound: 1 << 20))
        let millerRabinEngine = NumberFactEngine(primeTable: PrimeTable(bound: 100))
        var mismatches: [Int] = []
        for n in 0..<limit {
            let expected = oracle[n]
            if tableEngine.isPrime(Int64(n)) != expected
                || millerRabinEngine.isPrime(Int64(n)) != expected
                || NumberTheory.isPrimeMillerRabin(UInt64(n)) != expected {
                mismatches.append(n)
            }
        }
        #expect(mismatches.isEmpty, "mismatches: \(mismatches.prefix(20))")
    }

    @Test(arguments: [
        Int64(2), 3, 5, 97, 65_537,
        2_147_483_647,  // 2^31 - 1
        1_000_000_007,
        2_305_843_009_213_693_951,  // 2^61 - 1
        9_223_372_036_854_775_783,  // largest prime below 2^63
        3_037_000_493,
    ])
    func knownPrimes(_ n: Int64) {
        #expect(engine.isPrime(n))
        #expect(NumberTheory.isPrimeMillerRabin(UInt64(n)))
    }

    @Test(arguments: [
        Int64(0), 1, 4, 561, 1105, 1729,  // 561, 1105, 1729: Carmichael numbers
        2047,  // strong pseudoprime to base 2
        1_373_653,  // strong pseudoprime to bases 2, 3
        25_326_001,  // to 2, 3, 5
        3_215_031_751,  // to 2, 3, 5, 7
        2_152_302_898_747,  // to 2 ... 11
        3_474_749_660_383,  // to 2 ... 13
        341_550_071_728_321,  // to 2 ... 17
        3_825_123_056_546_413_051,  // to 2 ... 23
        Int64.max,  // 2^63 - 1
        4_611_686_018_427_387_904,  // 2^62
        4_611_686_014_132_420_609,  // (2^31 - 1)^2
        9_223_372_030_926_249_001,  // 3037000499^2
    ])
    func knownComposites(_ n: Int64) {
        #expect(!engine.isPrime(n))
        #expect(!NumberTheory.isPrimeMillerRabin(UInt64(n)))
    }

    @Test(arguments: [Int64(-1), -2, -7, -2_147_483_647, Int64.min])
    func negativeNumbersAreNotPrime(_ n: Int64) {
        #expect(!engine.isPrime(n))
    }

    @Test func modularArithmeticNearTheTopOfUInt64() {
        let m = UInt64.max - 58  // 2^64 - 59, the largest prime below 2^64
        #expect(NumberTheory.isPrimeMillerRabin(m))
        #expect(NumberTheory.mulmod(m - 1, m - 1, m) == 1)
        #expect(NumberTheory.powmod(2, m - 1, m) == 1)  // Fermat
        #expect(NumberTheory.addmod(m - 1, m - 1, m) == m - 2)
        #expect(NumberTheory.powmod(12345, 0, 1) == 0)
    }
}
