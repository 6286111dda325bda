import NumbersInterface

// Primality and factorisation with the prime table: trial division by the table's primes, then
// deterministic Miller-Rabin and Pollard-Rho (Brent's variant) for what remains.

/// Classification of a positive integer by the sum of its proper divisors.
public enum DivisorSumClass: String, Sendable, Hashable, Codable, CaseIterable {
    case perfect, abundant, deficient
}

extension NumberFactEngine {
    /// Primes up to this limit are tried by division before switching to Pollard-Rho.
    static let trialDivisionLimit: UInt32 = 1 << 16

    /// Deterministic primality for every Int64. Negative numbers, 0 and 1 are not prime.
    public func isPrime(_ n: Int64) -> Bool {
        if n < 2 { return false }
        return Self.isPrime(UInt64(n), sieve: primeTable.sieve())
    }

    static func isPrime(_ n: UInt64, sieve: Sieve) -> Bool {
        if n <= UInt64(sieve.bound), let known = sieve.isPrime(Int64(n)) { return known }
        return NumberTheory.isPrimeMillerRabin(n)
    }

    /// The prime factorisation of |n| in ascending order of primes.
    ///
    /// Returns an empty array for -1, 0 and 1. Negative numbers are factorised by magnitude, so
    /// Int64.min gives `[(2, 63)]`; the sign is the caller's to report.
    public func primeFactorization(_ n: Int64) -> [(prime: Int64, exponent: Int)] {
        Self.factorize(n.magnitude, sieve: primeTable.sieve()).map { (prime: Int64($0.prime), exponent: $0.exponent) }
    }

    /// Factorises any UInt64 (every prime factor of a value <= 2^63 fits in Int64).
    static func factorize(_ value: UInt64, sieve: Sieve) -> [(prime: UInt64, exponent: Int)] {
        if value < 2 { return [] }
        var m = value
        var result: [(prime: UInt64, exponent: Int)] = []

        // Trial division by the table's primes.
        var fullyFactored = false
        for p32 in sieve.primes {
            if p32 > trialDivisionLimit { break }
            let p = UInt64(p32)
            if p * p > m {
                fullyFactored = true
                break
            }
            if m % p == 0 {
                var exponent = 0
                repeat {
                    m /= p
                    exponent += 1
                } while m % p == 0
                result.append((p, exponent))
            }
        }
        if m == 1 { return result }
        if fullyFactored {
            result.append((m, 1))
            return result
        }

        // What is left has no prime factor below the last trial prime.
        var large: [UInt64] = []
        splitLarge(m, sieve: sieve, into: &large)
        large.sort()
        for p in large {
            if let last = result.last, last.prime == p {
                result[result.count - 1].exponent += 1
            } else {
                result.append((p, 1))
            }
        }
        return result
    }

    /// Appends the prime factors of m (with multiplicity) to `factors`.
    private static func splitLarge(_ m: UInt64, sieve: Sieve, into factors: inout [UInt64]) {
        if m == 1 { return }
        if isPrime(m, sieve: sieve) {
            factors.append(m)
            return
        }
        // Perfect squares defeat neither algorithm, but splitting them directly is cheap.
        let root = NumberTheory.integerSquareRoot(m)
        if root * root == m {
            splitLarge(root, sieve: sieve, into: &factors)
            splitLarge(root, sieve: sieve, into: &factors)
            return
        }
        let divisor = findDivisor(m)
        splitLarge(divisor, sieve: sieve, into: &factors)
        splitLarge(m / divisor, sieve: sieve, into: &factors)
    }

    /// A non-trivial divisor of the odd composite m.
    static func findDivisor(_ m: UInt64) -> UInt64 {
        if m & 1 == 0 { return 2 }
        var c: UInt64 = 1
        while c < 64 {
            if let d = pollardBrent(m, c: c, start: c &+ 1) { return d }
            c += 1
        }
        // Never expected: fall back to plain trial division, which is slow but always correct.
        var d: UInt64 = 3
        while d <= m / d {
            if m % d == 0 { return d }
            d += 2
        }
        return m
    }

    /// Brent's variant of Pollard-Rho with f(x) = x^2 + c mod n, batching gcds.
    /// Returns a non-trivial divisor, or nil if this choice of c fails.
    static func pollardBrent(_ n: UInt64, c: UInt64, start: UInt64) -> UInt64? {
        let c = c % n
        func f(_ x: UInt64) -> UInt64 {
            NumberTheory.addmod(NumberTheory.mulmod(x, x, n), c, n)
        }
        let batch = 128
        let maxRange = 1 << 26
        var y = start % n
        var x = y
        var ys = y
        var q: UInt64 = 1
        var g: UInt64 = 1
        var r = 1
        while g == 1 {
            x = y
            for _ in 0..<r { y = f(y) }
            var k = 0
            while k < r && g == 1 {
                ys = y
                for _ in 0..<min(batch, r - k) {
                    y = f(y)
                    q = NumberTheory.mulmod(q, x > y ? x - y : y - x, n)
                }
                g = NumberTheory.gcd(q, n)
                k += batch
            }
            if r >= maxRange && g == 1 { return nil }
            r *= 2
        }
        if g == n {
            // The batch overshot: step back through it one gcd at a time.
            repeat {
                ys = f(ys)
                g = NumberTheory.gcd(x > ys ? x - ys : ys - x, n)
            } while g == 1
        }
        return (g == n || g == 1) ? nil : g
    }

    // MARK: Divisor sums

    /// sigma(|n|), the sum of all positive divisors of |n|, computed in 128-bit arithmetic
    /// (it always fits: sigma(n) < 2^67 for n <= 2^64). Nil for n == 0.
    public func divisorSum(_ n: Int64) -> UInt128? {
        if n == 0 { return nil }
        return Self.divisorSum(of: Self.factorize(n.magnitude, sieve: primeTable.sieve()))
    }

    static func divisorSum(of factors: [(prime: UInt64, exponent: Int)]) -> UInt128 {
        var sigma: UInt128 = 1
        for (p, e) in factors {
            var term: UInt128 = 1
            var power: UInt128 = 1
            for _ in 0..<e {
                power *= UInt128(p)  // p^e divides n <= 2^64, so this stays small
                term += power
            }
            sigma *= term
        }
        return sigma
    }

    /// Perfect, abundant or deficient for n >= 1; nil for n <= 0.
    public func divisorSumClass(_ n: Int64) -> DivisorSumClass? {
        guard n >= 1, let sigma = divisorSum(n) else { return nil }
        return Self.classify(n: UInt64(n), sigma: sigma)
    }

    static func classify(n: UInt64, sigma: UInt128) -> DivisorSumClass {
        let twice = UInt128(n) * 2
        if sigma == twice { return .perfect }
        return sigma > twice ? .abundant : .deficient
    }

    /// All positive divisors from a factorisation, ascending (only call when the count is small).
    static func divisors(of factors: [(prime: UInt64, exponent: Int)]) -> [UInt64] {
        var result: [UInt64] = [1]
        for (p, e) in factors {
            var next: [UInt64] = []
            for d in result {
                var value = d
                next.append(value)
                for _ in 0..<e {
                    value *= p  // every value is a divisor of n, so it fits
                    next.append(value)
                }
            }
            result = next
        }
        return result.sorted()
    }

    static func divisorCount(of factors: [(prime: UInt64, exponent: Int)]) -> Int {
        factors.reduce(1) { $0 * ($1.exponent + 1) }
    }
}
