import NumbersInterface

/// Computes true, readable facts about any Int64, offline.
///
/// The engine is a value type holding only a reference to an immutable-once-built
/// ``PrimeTable``, so it is freely shareable across tasks. No input traps: every computation uses
/// overflow-reporting or widened arithmetic, and Int64.min (which has no positive counterpart) is
/// handled through its magnitude.
public struct NumberFactEngine: Sendable {
    /// The sieve used for small primality checks and trial division.
    public let primeTable: PrimeTable

    /// Creates an engine that uses `primeTable` for small numbers.
    public init(primeTable: PrimeTable = .shared) {
        self.primeTable = primeTable
    }

    // MARK: Facts

    /// Every fact this engine knows that holds for n, in the fixed order of ``NumberFact/Kind``.
    /// Never empty.
    public func facts(about n: Int64) -> [NumberFact] {
        rankedFacts(about: n).map(\.fact)
    }

    /// The most interesting fact about n. Deterministic: the same n always gives the same fact.
    public func fact(about n: Int64) -> NumberFact {
        let ranked = rankedFacts(about: n)
        var best = ranked[0]
        for candidate in ranked.dropFirst() where candidate.interest > best.interest {
            best = candidate
        }
        return best.fact
    }

    /// A fact about n chosen at random among ``facts(about:)``, weighted by how interesting each
    /// fact is (so "28 is a perfect number" comes up far more often than "28 is even").
    /// Reproducible for a seeded generator.
    public func fact(about n: Int64, using rng: inout some RandomNumberGenerator) -> NumberFact {
        let ranked = rankedFacts(about: n)
        let total = ranked.reduce(0) { $0 + $1.interest }
        var pick = Int.random(in: 0..<total, using: &rng)
        for candidate in ranked {
            if pick < candidate.interest { return candidate.fact }
            pick -= candidate.interest
        }
        return ranked[ranked.count - 1].fact
    }

    /// A random fact about a random number: mostly 0...10_000, sometimes much larger, occasionally
    /// negative. Reproducible for a seeded generator.
    public func randomFact(using rng: inout some RandomNumberGenerator) -> NumberFact {
        let n = Self.randomNumber(using: &rng)
        return fact(about: n, using: &rng)
    }

    /// ``randomFact(using:)`` with the system generator.
    public func randomFact() -> NumberFact {
        var rng = SystemRandomNumberGenerator()
        return randomFact(using: &rng)
    }

    /// The number distribution used by ``randomFact(using:)``.
    static func randomNumber(using rng: inout some RandomNumberGenerator) -> Int64 {
        let roll = Int.random(in: 0..<100, using: &rng)
        switch roll {
        case 0..<80: return Int64.random(in: 0...10_000, using: &rng)
        case 80..<90: return Int64.random(in: 10_001...1_000_000_000, using: &rng)
        case 90..<97: return Int64.random(in: 1_000_000_001...Int64.max, using: &rng)
        default: return Int64.random(in: -10_000 ... -1, using: &rng)
        }
    }

    // MARK: Ranking

    /// A fact with an interest score; higher is more interesting. Ties go to the earlier fact.
    struct RankedFact {
        let fact: NumberFact
        let interest: Int
    }

    static let largestInt64Prime: Int64 = 9_223_372_036_854_775_783

    /// Every fact about n with its interest, in the fixed order of ``NumberFact/Kind``: one step per kind.
    func rankedFacts(about n: Int64) -> [RankedFact] {
        var writer = FactWriter(number: n, sieve: primeTable.sieve())
        writer.addUnit()
        writer.addExtreme()
        writer.addNegative()
        writer.addPrime()
        writer.addComposite()
        writer.addMersenne()
        writer.addDivisorSum()
        writer.addFibonacci()
        writer.addTriangular()
        writer.addSquare()
        writer.addCube()
        writer.addPowerOfTwo()
        writer.addPalindrome()
        writer.addCollatz()
        writer.addRoman()
        writer.addDigitSum()
        writer.addHarshad()
        writer.addBinary()
        writer.addParity()
        return writer.facts
    }

    /// Primes up to this value are described with their position ("the 25th prime").
    static let primeIndexLimit: Int64 = 100_000

    /// The 1-based position of the prime p, for p <= ``primeIndexLimit``. Independent of the
    /// table's size, so facts never depend on how large a table the engine was given.
    static func primeIndex(of p: Int64, sieve: Sieve) -> Int? {
        guard p >= 2, p <= primeIndexLimit else { return nil }
        if p <= Int64(sieve.bound) { return sieve.primeIndex(of: p) }
        return Sieve(bound: Int(p)).primeIndex(of: p)
    }

    // MARK: Formatting

    /// "2^3 x 3^2 x 5"
    static func factorString(_ factors: [(prime: UInt64, exponent: Int)]) -> String {
        factors.map { $0.exponent == 1 ? String($0.prime) : "\($0.prime)^\($0.exponent)" }
            .joined(separator: " x ")
    }

    /// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, ...
    static func ordinal(_ k: Int) -> String {
        let suffix: String
        if (11...13).contains(k % 100) {
            suffix = "th"
        } else {
            switch k % 10 {
            case 1: suffix = "st"
            case 2: suffix = "nd"
            case 3: suffix = "rd"
            default: suffix = "th"
            }
        }
        return "\(k)\(suffix)"
    }
}
