import ModuleHost

/// A sieve of Eratosthenes up to a fixed bound, built once and then shared read-only.
///
/// The table is built lazily: either explicitly with ``warm()`` (for example by a startup
/// operation running in the background) or on first use. Building happens under a `Locked`, so
/// concurrent callers never build twice; afterwards they only take the lock to fetch an immutable
/// snapshot, which they then read without locking.
public final class PrimeTable: Sendable {
    /// The default bound: 2^20, which gives 82,025 primes and a 64 KiB bitmap.
    public static let defaultBound = 1 << 20
    /// The largest bound accepted; larger requests are clamped to it.
    public static let maximumBound = 1 << 28

    /// A process-wide table with the default bound. It holds no mutable state other than its
    /// lock-protected, build-once sieve.
    public static let shared = PrimeTable()

    /// Every n in 0...bound is answered by the sieve.
    public let bound: Int

    private let storage = Locked<Sieve?>(nil)

    /// Creates an unbuilt table; `bound` is clamped to 2...``maximumBound``.
    public init(bound: Int = PrimeTable.defaultBound) {
        self.bound = min(max(bound, 2), PrimeTable.maximumBound)
    }

    /// Builds the sieve now if it has not been built yet. Safe to call from any thread, any
    /// number of times.
    public func warm() {
        _ = sieve()
    }

    /// Whether the sieve has been built.
    public var isWarm: Bool {
        storage.withLock { $0 != nil }
    }

    /// Primality of n from the sieve, or nil when n is above ``bound``. Builds the sieve if needed.
    public func isPrime(_ n: Int64) -> Bool? {
        sieve().isPrime(n)
    }

    /// The number of primes <= ``bound``. Builds the sieve if needed.
    public var primeCount: Int {
        sieve().primes.count
    }

    /// The immutable sieve, built on first request.
    func sieve() -> Sieve {
        storage.withLock { state -> Sieve in
            if let built = state { return built }
            let built = Sieve(bound: bound)
            state = built
            return built
        }
    }
}

/// An immutable sieve snapshot: a bitmap of odd composites plus the list of primes.
final class Sieve: Sendable {
    let bound: Int
    /// Bit i set means the odd number 2i + 1 is composite (1 is marked composite).
    private let oddComposite: [UInt64]
    /// All primes <= bound, ascending.
    let primes: [UInt32]

    init(bound: Int) {
        self.bound = bound
        let oddCount = bound / 2 + 1  // odd numbers 1, 3, ..., covering up to bound
        var bits = [UInt64](repeating: 0, count: (oddCount + 63) / 64)
        bits[0] |= 1  // 1 is not prime
        var i = 1
        while true {
            let p = 2 * i + 1
            if p > bound / p { break }  // p * p > bound
            if bits[i >> 6] & (1 << UInt64(i & 63)) == 0 {
                var j = (p * p) / 2
                while j < oddCount {
                    bits[j >> 6] |= 1 << UInt64(j & 63)
                    j += p
                }
            }
            i += 1
        }
        var primes: [UInt32] = bound >= 2 ? [2] : []
        var k = 1
        while 2 * k + 1 <= bound {
            if bits[k >> 6] & (1 << UInt64(k & 63)) == 0 { primes.append(UInt32(2 * k + 1)) }
            k += 1
        }
        self.oddComposite = bits
        self.primes = primes
    }

    /// Primality from the table, or nil when n is above the bound.
    func isPrime(_ n: Int64) -> Bool? {
        if n < 0 || n > Int64(bound) { return n < 0 ? false : nil }
        if n < 2 { return false }
        if n == 2 { return true }
        if n & 1 == 0 { return false }
        let index = Int(n / 2)
        return oddComposite[index >> 6] & (1 << UInt64(index & 63)) == 0
    }

    /// The 1-based position of the prime p in the list of primes, if p is a prime within the bound.
    func primeIndex(of p: Int64) -> Int? {
        guard p >= 2, p <= Int64(bound) else { return nil }
        var low = 0
        var high = primes.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let value = Int64(primes[mid])
            if value == p { return mid + 1 }
            if value < p { low = mid + 1 } else { high = mid - 1 }
        }
        return nil
    }
}
