@testable import NumbersModule

/// A plain sieve of Eratosthenes, written independently of the engine's, as a test oracle.
func referenceSieve(upTo limit: Int) -> [Bool] {
    var isPrime = [Bool](repeating: true, count: limit + 1)
    isPrime[0] = false
    if limit >= 1 { isPrime[1] = false }
    var p = 2
    while p * p <= limit {
        if isPrime[p] {
            for multiple in stride(from: p * p, through: limit, by: p) { isPrime[multiple] = false }
        }
        p += 1
    }
    return isPrime
}

/// Multiplies out a factorisation, or nil if it overflows Int64.
func product(of factors: [(prime: Int64, exponent: Int)]) -> Int64? {
    var result: Int64 = 1
    for (p, e) in factors {
        for _ in 0..<e {
            let (next, overflow) = result.multipliedReportingOverflow(by: p)
            if overflow { return nil }
            result = next
        }
    }
    return result
}

/// Renders a factorisation as [prime: exponent] pairs for easy comparison.
func pairs(_ factors: [(prime: Int64, exponent: Int)]) -> [[Int64]] {
    factors.map { [$0.prime, Int64($0.exponent)] }
}
