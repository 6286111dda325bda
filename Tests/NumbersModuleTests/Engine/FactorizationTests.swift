import Testing
@testable import NumbersModule
import TestSupport

@Suite("Factorisation and divisor sums")
struct FactorizationTests {
    let engine = NumberFactEngine()

    @Test func int64MaxFactorsExactly() {
        let factors = engine.primeFactorization(.max)
        #expect(pairs(factors) == [[7, 2], [73, 1], [127, 1], [337, 1], [92737, 1], [649657, 1]])
        #expect(product(of: factors) == .max)
    }

    @Test func mersennePrimeIsItsOwnFactorisation() {
        let n: Int64 = 2_305_843_009_213_693_951
        #expect(pairs(engine.primeFactorization(n)) == [[n, 1]])
    }

    @Test func powersOfTwoAndInt64Min() {
        #expect(pairs(engine.primeFactorization(1 << 62)) == [[2, 62]])
        // Int64.min is factorised by magnitude: 2^63.
        #expect(pairs(engine.primeFactorization(.min)) == [[2, 63]])
    }

    @Test func smallAndNegativeValues() {
        #expect(engine.primeFactorization(0).isEmpty)
        #expect(engine.primeFactorization(1).isEmpty)
        #expect(engine.primeFactorization(-1).isEmpty)
        #expect(pairs(engine.primeFactorization(360)) == [[2, 3], [3, 2], [5, 1]])
        #expect(pairs(engine.primeFactorization(-28)) == [[2, 2], [7, 1]])
    }

    @Test(arguments: [
        (Int64(3_037_000_453), Int64(3_037_000_493)),
        (3_037_000_427, 3_037_000_429),  // twin primes: close factors
        (1_000_000_007, 1_000_000_009),
        (2_147_483_647, 2_147_483_647),  // (2^31 - 1)^2
        (65_537, 70_368_744_177_679),  // small times large
    ])
    func largeSemiprimes(p: Int64, q: Int64) {
        let n = p * q
        let factors = engine.primeFactorization(n)
        let expected: [[Int64]] = p == q ? [[p, 2]] : [[min(p, q), 1], [max(p, q), 1]]
        #expect(pairs(factors) == expected)
    }

    @Test func strongPseudoprimesFactorCorrectly() {
        #expect(pairs(engine.primeFactorization(3_215_031_751)) == [[151, 1], [751, 1], [28351, 1]])
        #expect(pairs(engine.primeFactorization(3_825_123_056_546_413_051))
            == [[149491, 1], [747451, 1], [34233211, 1]])
        #expect(pairs(engine.primeFactorization(561)) == [[3, 1], [11, 1], [17, 1]])
    }

    @Test func randomSampleMultipliesBack() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        // A small table makes Pollard-Rho do more of the work too.
        let engines = [engine, NumberFactEngine(primeTable: PrimeTable(bound: 1000))]
        for i in 0..<400 {
            let bits = Int.random(in: 2...63, using: &rng)
            let n = Int64(bitPattern: rng.next() >> UInt64(64 - bits)) | 1 << Int64(bits - 2)
            let e = engines[i % 2]
            let factors = e.primeFactorization(n)
            #expect(product(of: factors) == n, "n = \(n)")
            for (index, factor) in factors.enumerated() {
                #expect(e.isPrime(factor.prime), "\(factor.prime) in factorisation of \(n)")
                #expect(factor.exponent >= 1)
                if index > 0 { #expect(factors[index - 1].prime < factor.prime) }
            }
            let isPrime = factors.count == 1 && factors[0].exponent == 1
            #expect(isPrime == e.isPrime(n), "n = \(n)")
        }
    }

    @Test func divisorSumsMatchBruteForce() {
        for n in Int64(1)...2000 {
            var sum: Int64 = 0
            for d in 1...n where n % d == 0 { sum += d }
            #expect(engine.divisorSum(n) == UInt128(sum), "sigma(\(n))")
        }
    }

    @Test func divisorSumClasses() {
        #expect(engine.divisorSumClass(6) == .perfect)
        #expect(engine.divisorSumClass(28) == .perfect)
        #expect(engine.divisorSumClass(496) == .perfect)
        #expect(engine.divisorSumClass(8128) == .perfect)
        #expect(engine.divisorSumClass(33_550_336) == .perfect)
        #expect(engine.divisorSumClass(2_305_843_008_139_952_128) == .perfect)  // 2^30 (2^31 - 1)
        #expect(engine.divisorSumClass(12) == .abundant)
        #expect(engine.divisorSumClass(945) == .abundant)
        #expect(engine.divisorSumClass(1) == .deficient)
        #expect(engine.divisorSumClass(13) == .deficient)
        #expect(engine.divisorSumClass(0) == nil)
        #expect(engine.divisorSumClass(-28) == nil)
        // sigma can exceed Int64.max; 128-bit arithmetic keeps it exact.
        let highlyComposite: Int64 = 2_459_559_130_353_965_640  // 2^3 x 3 x 5 x ... x 47
        #expect(product(of: engine.primeFactorization(highlyComposite)) == highlyComposite)
        #expect(engine.divisorSumClass(highlyComposite) == .abundant)
        #expect(engine.divisorSum(highlyComposite) == 13_527_375_509_716_992_000)
        #expect(engine.divisorSum(.min) == (UInt128(1) << 64) - 1)
    }
}
