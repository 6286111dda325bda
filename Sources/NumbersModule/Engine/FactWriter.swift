import NumbersInterface

/// Writes the ranked facts about one number. The shared analysis (factorization, divisor sum, roots) is done
/// once, at init; each `add…` step adds the facts of one kind.
struct FactWriter {
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

    mutating func add(_ kind: NumberFact.Kind, _ interest: Int, _ content: String) {
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
}
