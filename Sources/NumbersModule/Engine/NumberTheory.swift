import NumbersInterface

// Pure, table-free number theory on 64-bit integers.
//
// Every routine here is total over its input type: no arithmetic may trap. Products and sums that
// could leave the range use `multipliedFullWidth`, `dividingFullWidth` or the
// `...ReportingOverflow` operations, and roots are found by exact integer search rather than
// floating point.

/// Pure number-theoretic building blocks used by ``NumberFactEngine``.
///
/// None of these needs the prime table; the table-assisted operations (primality, factorisation,
/// divisor sums) live on ``NumberFactEngine``.
public enum NumberTheory {

    // MARK: Modular arithmetic

    /// `a * b mod m` without overflow. Requires `m > 0`; `a` and `b` may be any value.
    @inline(__always)
    static func mulmod(_ a: UInt64, _ b: UInt64, _ m: UInt64) -> UInt64 {
        let product = (a % m).multipliedFullWidth(by: b % m)
        // high < m because both factors are < m, so the division cannot overflow.
        return m.dividingFullWidth((high: product.high, low: product.low)).remainder
    }

    /// `a + b mod m` without overflow, for `a, b < m`.
    @inline(__always)
    static func addmod(_ a: UInt64, _ b: UInt64, _ m: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if overflow || sum >= m { return sum &- m }
        return sum
    }

    /// `base ^ exponent mod m` by square-and-multiply. Requires `m > 0`.
    static func powmod(_ base: UInt64, _ exponent: UInt64, _ m: UInt64) -> UInt64 {
        if m == 1 { return 0 }
        var result: UInt64 = 1
        var b = base % m
        var e = exponent
        while e > 0 {
            if e & 1 == 1 { result = mulmod(result, b, m) }
            e >>= 1
            if e > 0 { b = mulmod(b, b, m) }
        }
        return result
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    // MARK: Primality without a table

    /// The witnesses that make Miller-Rabin deterministic for every n < 3.3 * 10^24,
    /// which covers all of UInt64.
    static let millerRabinBases: [UInt64] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]

    /// Deterministic Miller-Rabin primality test for the whole UInt64 range.
    static func isPrimeMillerRabin(_ n: UInt64) -> Bool {
        if n < 2 { return false }
        for p in millerRabinBases {
            if n == p { return true }
            if n % p == 0 { return false }
        }
        // n is odd and > 37 here.
        let nMinusOne = n - 1
        let s = nMinusOne.trailingZeroBitCount
        let d = nMinusOne >> UInt64(s)
        witnessLoop: for a in millerRabinBases {
            var x = powmod(a, d, n)
            if x == 1 || x == nMinusOne { continue }
            var round = 1
            while round < s {
                x = mulmod(x, x, n)
                if x == nMinusOne { continue witnessLoop }
                if x == 1 { return false }
                round += 1
            }
            return false
        }
        return true
    }

    // MARK: Roots

    /// floor(sqrt(n)) computed exactly by binary search (no floating point).
    public static func integerSquareRoot(_ n: UInt64) -> UInt64 {
        var low: UInt64 = 0
        var high: UInt64 = min(n, 0xFFFF_FFFF)  // floor(sqrt(UInt64.max)) = 2^32 - 1
        while low < high {
            let mid = low + (high - low + 1) / 2
            let (square, overflow) = mid.multipliedReportingOverflow(by: mid)
            if !overflow && square <= n { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// floor(cbrt(n)) computed exactly by binary search (no floating point).
    public static func integerCubeRoot(_ n: UInt64) -> UInt64 {
        var low: UInt64 = 0
        var high: UInt64 = min(n, 2_642_245)  // floor(cbrt(UInt64.max)) = 2_642_245
        while low < high {
            let mid = low + (high - low + 1) / 2
            if let cube = cubeIfFits(mid), cube <= n { low = mid } else { high = mid - 1 }
        }
        return low
    }

    static func cubeIfFits(_ x: UInt64) -> UInt64? {
        let (square, o1) = x.multipliedReportingOverflow(by: x)
        if o1 { return nil }
        let (cube, o2) = square.multipliedReportingOverflow(by: x)
        return o2 ? nil : cube
    }

    /// The root r with r * r == n, or nil when n is not a perfect square (negative n never is).
    public static func exactSquareRoot(_ n: Int64) -> Int64? {
        if n < 0 { return nil }
        let r = integerSquareRoot(UInt64(n))
        return r &* r == UInt64(n) ? Int64(r) : nil
    }

    /// The root r with r * r * r == n, or nil. Handles negative n, including Int64.min = (-2^21)^3.
    public static func exactCubeRoot(_ n: Int64) -> Int64? {
        let magnitude = n.magnitude
        let r = integerCubeRoot(magnitude)
        guard cubeIfFits(r) == magnitude else { return nil }
        // r <= 2^21 here, so Int64(r) and its negation are safe.
        return n < 0 ? -Int64(r) : Int64(r)
    }
}
