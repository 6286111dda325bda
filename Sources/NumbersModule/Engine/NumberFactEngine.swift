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

/// Writes the ranked facts about one number. The shared analysis (factorization, divisor sum, roots) is done
/// once, at init; each `add…` step adds the facts of one kind.
private struct FactWriter {
    typealias Engine = NumberFactEngine

    let n: Int64
    let text: String
    let sieve: Sieve
    let factors: [(prime: UInt64, exponent: Int)]
    let magnitudeIsPrime: Bool
    let isPrime: Bool
    let sigma: UInt128?
    let divisorClass: DivisorSumClass?
    let fibonacci: Int?
    let squareRoot: Int64?
    let cubeRoot: Int64?
    let digitSum: Int
    private(set) var facts: [NumberFactEngine.RankedFact] = []

    init(number n: Int64, sieve: Sieve) {
        self.n = n
        self.text = String(n)
        self.sieve = sieve
        self.factors = Engine.factorize(n.magnitude, sieve: sieve)
        self.magnitudeIsPrime = factors.count == 1 && factors[0].exponent == 1
        self.isPrime = n >= 2 && magnitudeIsPrime
        self.sigma = n >= 1 ? Engine.divisorSum(of: factors) : nil
        self.divisorClass = sigma.map { Engine.classify(n: UInt64(n), sigma: $0) }
        self.fibonacci = NumberTheory.fibonacciIndex(n)
        self.squareRoot = NumberTheory.exactSquareRoot(n)
        self.cubeRoot = NumberTheory.exactCubeRoot(n)
        self.digitSum = NumberTheory.digitSum(n)
    }

    private mutating func add(_ kind: NumberFact.Kind, _ interest: Int, _ content: String) {
        facts.append(.init(fact: NumberFact(number: n, content: content, kind: kind), interest: interest))
    }

    /// 0, 1 and -1, which are neither prime nor composite.
    mutating func addUnit() {
        switch n {
        case 0:
            add(.unit, 90, "0 is neither positive nor negative, and neither prime nor composite: every integer divides it.")
        case 1:
            add(.unit, 90, "1 is neither prime nor composite: it is the multiplicative identity and divides every integer.")
        case -1:
            add(.unit, 90, "-1 is neither prime nor composite: it is a unit, its own multiplicative inverse.")
        default:
            break
        }
    }

    /// Int64.max and Int64.min.
    mutating func addExtreme() {
        if n == .max {
            add(.extreme, 100, "\(text) is Int64.max, the largest 64-bit signed integer: 2^63 - 1.")
        } else if n == .min {
            add(.extreme, 100, "\(text) is Int64.min, the smallest 64-bit signed integer: -2^63. Its absolute value 2^63 does not fit in Int64, so it has no positive counterpart.")
        }
    }

    /// The sign, and what the absolute value is.
    mutating func addNegative() {
        if n < 0 {
            let magnitude = String(n.magnitude)
            var remark = ""
            if n == .min {
                remark = ", one more than Int64.max"
            } else if magnitudeIsPrime {
                remark = ", a prime"
            } else if n != -1, Engine.classify(n: n.magnitude, sigma: Engine.divisorSum(of: factors)) == .perfect {
                remark = ", a perfect number"
            }
            add(.negative, 20, "\(text) is negative; its absolute value is \(magnitude)\(remark).")
        }
    }

    /// Primality, with Mersenne, position and twin details; or the negative of a prime.
    mutating func addPrime() {
        if isPrime {
            var details: [String] = []
            var interest = 70
            if let k = NumberTheory.mersenneExponent(n) {
                details.append("it is the Mersenne prime 2^\(k) - 1")
                interest = 92
            }
            if n == Engine.largestInt64Prime {
                details.append("it is the largest prime that fits in Int64")
                interest = 99
            }
            if let index = Engine.primeIndex(of: n, sieve: sieve) {
                details.append("it is the \(Engine.ordinal(index)) prime")
            }
            let below = n - 2  // n >= 2, cannot overflow
            let (above, aboveOverflow) = n.addingReportingOverflow(2)
            var twins: [String] = []
            if below >= 2 && Engine.isPrime(UInt64(below), sieve: sieve) { twins.append(String(below)) }
            if !aboveOverflow && Engine.isPrime(UInt64(above), sieve: sieve) { twins.append(String(above)) }
            if !twins.isEmpty {
                details.append("it is a twin prime with \(twins.joined(separator: " and "))")
            }
            let suffix = details.isEmpty ? "." : " (\(details.joined(separator: "; ")))."
            add(.prime, interest, "\(text) is prime\(suffix)")
        } else if n <= -2 && magnitudeIsPrime {
            add(.prime, 40, "\(text) is the negative of the prime \(n.magnitude); primes themselves are positive.")
        }
    }

    /// The prime factorization.
    mutating func addComposite() {
        let totalExponent = factors.reduce(0) { $0 + $1.exponent }
        if totalExponent >= 2 {
            let product = Engine.factorString(factors)
            let count = Engine.divisorCount(of: factors)
            if n > 0 {
                let kind = totalExponent == 2 ? "a semiprime with" : "with"
                let interest = n > 1_000_000_000_000 && factors.count > 1 ? 35 : 25
                add(.composite, interest, "\(text) is composite: \(text) = \(product), \(kind) \(count) divisors.")
            } else {
                add(.composite, 25, "\(text) = -1 x \(product); its absolute value is composite, with \(count) positive divisors.")
            }
        }
    }

    /// 2^k - 1, prime or not.
    mutating func addMersenne() {
        if let k = NumberTheory.mersenneExponent(n) {
            if isPrime {
                add(.mersenne, 90, "\(text) = 2^\(k) - 1 is a Mersenne prime.")
            } else if !Engine.isPrime(UInt64(k), sieve: sieve) {
                add(.mersenne, 55, "\(text) = 2^\(k) - 1 is a Mersenne number, but not prime: the exponent \(k) is composite, so 2^\(k) - 1 cannot be prime.")
            } else {
                add(.mersenne, 65, "\(text) = 2^\(k) - 1 is a Mersenne number with a prime exponent, yet it is not prime.")
            }
        }
    }

    /// Perfect, abundant or deficient (positive numbers).
    mutating func addDivisorSum() {
        if let sigma = sigma, let divisorClass = divisorClass {
            let aliquot = sigma - UInt128(n)
            let count = Engine.divisorCount(of: factors)
            let properList: String? = count <= 24
                ? Engine.divisors(of: factors).dropLast().map(String.init).joined(separator: " + ")
                : nil
            switch divisorClass {
            case .perfect:
                let list = properList.map { " \($0)" } ?? ""
                add(.perfect, 95, "\(text) is a perfect number: it equals the sum of its proper divisors\(list).")
            case .abundant:
                let sum = properList.map { "its proper divisors \($0) sum to \(aliquot)" } ?? "its proper divisors sum to \(aliquot)"
                let odd = n & 1 == 1 ? " It is an odd abundant number, which is rare." : ""
                add(.abundant, n & 1 == 1 ? 60 : 40, "\(text) is abundant: \(sum), which is more than \(text).\(odd)")
            case .deficient:
                let sum: String
                if n == 1 {
                    sum = "it has no proper divisors, so their sum is 0"
                } else if isPrime {
                    sum = "as a prime its only proper divisor is 1"
                } else {
                    sum = properList.map { "its proper divisors \($0) sum to \(aliquot)" } ?? "its proper divisors sum to \(aliquot)"
                }
                add(.deficient, 8, "\(text) is deficient: \(sum), which is less than \(text).")
            }
        }
    }

    /// Membership of the Fibonacci sequence.
    mutating func addFibonacci() {
        if let k = fibonacci {
            let content: String
            switch n {
            case 0: content = "0 is the Fibonacci number F(0)."
            case 1: content = "1 is a Fibonacci number: F(1) = F(2) = 1."
            default: content = "\(text) is a Fibonacci number: F(\(k)) = \(text)."
            }
            add(.fibonacci, n > 3 ? 80 : 30, content)
        }
    }

    /// Triangular numbers.
    mutating func addTriangular() {
        if let k = NumberTheory.triangularIndex(n) {
            let content: String
            switch k {
            case 0: content = "0 is the triangular number T(0), the empty sum."
            case 1: content = "1 is the triangular number T(1)."
            case 2...5:
                let terms = (1...k).map(String.init).joined(separator: " + ")
                content = "\(text) is triangular: \(terms) = \(text), so it is T(\(k))."
            default:
                content = "\(text) is triangular: 1 + 2 + ... + \(k) = \(text), so it is T(\(k))."
            }
            add(.triangular, n > 3 ? 55 : 20, content)
        }
    }

    /// Perfect squares.
    mutating func addSquare() {
        if let r = squareRoot {
            add(.square, n > 1 ? 60 : 15, "\(text) is a perfect square: \(r)^2 = \(text).")
        }
    }

    /// Perfect cubes, and sixth powers.
    mutating func addCube() {
        if let r = cubeRoot {
            let base = r < 0 ? "(\(r))" : String(r)
            var sixth = ""
            var interest = n.magnitude > 1 ? 65 : 15
            if n > 1, squareRoot != nil, let s = NumberTheory.exactSquareRoot(r) {
                sixth = " Being both a square and a cube, it is the sixth power \(s)^6."
                interest = 75
            }
            add(.cube, interest, "\(text) is a perfect cube: \(base)^3 = \(text).\(sixth)")
        }
    }

    /// Powers of two.
    mutating func addPowerOfTwo() {
        if let e = NumberTheory.powerOfTwoExponent(n) {
            if e == 62 {
                add(.powerOfTwo, 95, "\(text) = 2^62 is the largest power of two that fits in Int64.")
            } else {
                add(.powerOfTwo, n >= 4 ? 62 : 15, "\(text) = 2^\(e) is a power of two.")
            }
        }
    }

    /// Decimal palindromes.
    mutating func addPalindrome() {
        if NumberTheory.isDecimalPalindrome(n) {
            if n < 10 {
                add(.palindrome, 5, "\(text) has a single digit, so it is trivially a palindrome.")
            } else {
                add(.palindrome, 50, "\(text) is a palindrome: its decimal digits read the same forwards and backwards.")
            }
        }
    }

    /// The Collatz trajectory (positive numbers).
    mutating func addCollatz() {
        if n >= 1 {
            let rule = "(halve if even, triple and add 1 if odd)"
            switch NumberTheory.collatz(n) {
            case .reachesOne(let steps, let peak):
                if steps == 0 {
                    add(.collatz, 10, "1 is where the Collatz map \(rule) ends: it takes 0 steps.")
                } else {
                    let plural = steps == 1 ? "step" : "steps"
                    add(.collatz, steps >= 100 ? 45 : 30, "\(text) reaches 1 after \(steps) \(plural) of the Collatz map \(rule), peaking at \(peak).")
                }
            case .overflows(let steps, let value):
                let plural = steps == 1 ? "step" : "steps"
                add(.collatz, 30, "Starting from \(text), the Collatz map \(rule) leaves the Int64 range after \(steps) \(plural): 3 x \(value) + 1 would exceed Int64.max, so the number of steps to reach 1 is not computed here.")
            case .stepLimitReached(let steps):
                add(.collatz, 30, "Starting from \(text), the Collatz map \(rule) had not reached 1 after \(steps) steps, so the count was stopped.")
            case .undefined:
                break
            }
        }
    }

    /// The Roman numeral, or why there is none.
    mutating func addRoman() {
        if let roman = NumberTheory.romanNumeral(n) {
            let note = n == 3999 ? ", the largest number with a standard Roman numeral" : ""
            add(.roman, n == 3999 ? 45 : 40, "\(text) in Roman numerals is \(roman)\(note).")
        } else if n == 0 {
            add(.roman, 12, "0 has no standard Roman numeral: the Romans had no symbol for zero, and standard numerals cover 1 to 3999.")
        } else {
            add(.roman, 2, "\(text) has no standard Roman numeral: standard Roman numerals cover only 1 to 3999.")
        }
    }

    /// Digit count, digit sum and digital root.
    mutating func addDigitSum() {
        let digits = NumberTheory.decimalDigits(n).count
        let root = digitSum == 0 ? 0 : 1 + (digitSum - 1) % 9
        let sign = n < 0 ? " (ignoring the sign)" : ""
        if digits == 1 {
            add(.digitSum, 5, "\(text) has a single digit\(sign), so its digit sum and digital root are both \(digitSum).")
        } else {
            add(.digitSum, 15, "\(text) has \(digits) digits\(sign), which sum to \(digitSum); its digital root is \(root).")
        }
    }

    /// Harshad numbers.
    mutating func addHarshad() {
        if n >= 10 && NumberTheory.isHarshad(n) {
            add(.harshad, 30, "\(text) is a Harshad number: it is divisible by its digit sum \(digitSum) (\(text) = \(digitSum) x \(n / Int64(digitSum))).")
        }
    }

    /// The binary form.
    mutating func addBinary() {
        let bits = NumberTheory.binaryString(n)
        if n >= 0 {
            let ones = n.nonzeroBitCount
            let palindrome = n > 0 && bits.count >= 3 && String(bits.reversed()) == bits
            let extra = palindrome ? ", and it reads the same backwards" : ""
            if n <= 1 {
                add(.binary, 5, "\(text) in binary is simply \(bits).")
            } else {
                add(.binary, palindrome ? 35 : 20, "\(text) in binary is \(bits): \(bits.count) bits, \(ones) of them set to 1\(extra).")
            }
        } else {
            let ones = n.nonzeroBitCount
            add(.binary, 20, "\(text) in 64-bit two's complement is \(bits): \(ones) of its 64 bits set to 1.")
        }
    }

    /// Even or odd.
    mutating func addParity() {
        add(.parity, 1, n & 1 == 0 ? "\(text) is even." : "\(text) is odd.")
    }
}
